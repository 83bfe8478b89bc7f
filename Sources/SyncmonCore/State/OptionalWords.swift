/// Four optional 64-bit values in 33 bytes, for the state kept per pair.
///
/// Four `Int64?` took 16 bytes each: a presence byte, padded to the next word. A pair keeps
/// twelve of them in its three phase trackers, and the pair table's memory is what a tracked
/// pair costs (docs/performance.md). An absent value's word is zero, so equal contents compare
/// equal.
struct OptionalWords: Equatable, Sendable {
    private var words: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
    /// Bit `slot` is set when slot `slot` holds a value.
    private var present: UInt8 = 0

    /// The value in `slot` (0–3).
    @inline(__always)
    subscript(slot: Int) -> Int64? {
        get {
            guard self.present & (1 << slot) != 0 else { return nil }
            switch slot {
            case 0: return self.words.0
            case 1: return self.words.1
            case 2: return self.words.2
            default: return self.words.3
            }
        }
        set {
            let word = newValue ?? 0
            switch slot {
            case 0: self.words.0 = word
            case 1: self.words.1 = word
            case 2: self.words.2 = word
            default: self.words.3 = word
            }
            if newValue == nil {
                self.present &= ~(1 << slot)
            } else {
                self.present |= 1 << slot
            }
        }
    }

    /// The value in `slot` (0–3) as a time, the form most of them have.
    @inline(__always)
    subscript(time slot: Int) -> Timestamp? {
        get { self[slot].map(Timestamp.init(microseconds:)) }
        set { self[slot] = newValue?.microseconds }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.present == rhs.present && lhs.words == rhs.words
    }
}
