/// One series' labels inside a ``SeriesLabels`` buffer: a plain view, valid while the buffer's
/// ``SeriesLabels/withSeries(_:)`` call lasts.
public struct SeriesLabel {
    let bytes: UnsafeRawBufferPointer
}
