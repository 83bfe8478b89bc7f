/// One series' labels inside a ``SeriesLabels`` buffer: a plain view, valid while the buffer's
/// ``SeriesLabels/withSeries(_:)`` call lasts, with readable bytes past its end for the
/// writer's block copies.
public struct SeriesLabel {
    let bytes: UnsafeRawBufferPointer
}
