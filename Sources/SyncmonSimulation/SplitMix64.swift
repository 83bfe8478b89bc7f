import SyncmonClient
import SyncmonCore

/// A small, fast, seedable random number generator (SplitMix64), so that `--seed N` gives the
/// same simulated stream every time.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state.
    private var state: UInt64

    package init(seed: UInt64) {
        self.state = seed
    }

    package mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A new generator whose sequence is independent of this one's (one per simulated engine).
    package mutating func split() -> SplitMix64 {
        SplitMix64(seed: self.next())
    }
}
