extension Int64 {
    /// `self + other`, held at the nearest bound instead of trapping: counters foreign tools and
    /// APIs report are summed, and no number they print may stop syncmon (docs/fuzzing.md).
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = self.addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
