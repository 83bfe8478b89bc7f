/// The tracked pairs: their keys and states in two dense arrays, found by key through a table
/// of positions.
///
/// A `[PairKey: PairState]` kept a 144-byte key and a 1.3 KiB state in every one of its slots,
/// a power of two at most three quarters full, and the hash spread the pairs over all of them:
/// 2.4 KiB of touched memory a pair at 10,000 pairs. Here the states are packed in the order
/// the pairs came (the arrays' unused capacity is never touched, so it costs address space,
/// not memory), and the table that finds them holds 4-byte positions: 1.5 KiB a pair.
///
/// Positions are `Int` offsets into ``keys`` and ``values``. Removing a pair moves the last
/// one into its place, so a position is good until the next removal (insertions append).
public struct PairTable: Sendable, RandomAccessCollection {
    public typealias Element = (key: PairKey, value: PairState)
    public typealias Index = Int

    /// Each pair's key, at its position.
    public private(set) var keys: [PairKey] = []
    /// Each pair's state, at its position; changed in place by the monitor.
    public internal(set) var values: [PairState] = []
    /// Each pair's changes of health, at its position (empty until its first change): kept
    /// apart from its state, which is copied on every look, and gone with the pair.
    public internal(set) var histories: [PairHistory] = []
    private var positions = PositionTable()

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { self.keys.count }

    public subscript(position: Int) -> Element { (self.keys[position], self.values[position]) }

    /// The position of `key`'s pair, `nil` when it is not tracked.
    @inline(__always)
    public func index(forKey key: PairKey) -> Int? {
        self.positions.find(key, in: self.keys)
    }

    /// When the looks around an event at `time`, received at `now`, judge the pair at
    /// `position` (docs/protocol.md#time): the latest of the event's time, the pair's latest
    /// event time and the time it was last judged, when that is more than
    /// ``Monitor/lateLookDelay`` before `now` (a late event); else `now`, as every event on time
    /// is judged (stamped by the engine a moment before it is read), with the look before it
    /// skipped while the pair's verdict holds.
    ///
    /// A backlog sent late (a client's queue, a recording piped in) is judged at the times it
    /// states, as replay judges it: a fetch that took a millisecond an hour ago is not a stall
    /// of an hour between its start and its end. Judged at `now`, each such cycle raised a
    /// stall at its start and cleared it at its end. Two times loaded through the buffer: a
    /// mutating call on the state (the usual way to read it in place) checks the array's
    /// uniqueness first, on every event.
    @inline(__always)
    func lookTime(ofPairAt position: Int, eventAt time: Timestamp, receivedAt now: Timestamp) -> Timestamp {
        let judging = self.values.withUnsafeBufferPointer { Swift.min(now, Swift.max(time, $0[position].lastEvent, $0[position].judgedAt)) }
        return judging.adding(Monitor.lateLookDelay) < now ? judging : now
    }

    /// The pair of `key`; setting adds it (at the end) or replaces it, `nil` removes it.
    public subscript(key: PairKey) -> PairState? {
        get { self.index(forKey: key).map { self.values[$0] } }
        set {
            switch (self.index(forKey: key), newValue) {
            case (let position?, let state?): self.values[position] = state
            case (let position?, nil): self.remove(at: position)
            case (nil, let state?): self.append(key, state)
            case (nil, nil): break
            }
        }
    }

    /// Adds the pairs of `other` that this table does not have.
    public mutating func merge(_ other: PairTable) {
        for position in other.indices where self.index(forKey: other.keys[position]) == nil {
            self.append(other.keys[position], other.values[position], history: other.histories[position])
        }
    }

    public mutating func removeAll() {
        self = PairTable()
    }

    private mutating func append(_ key: PairKey, _ state: PairState, history: PairHistory = PairHistory()) {
        self.keys.append(key)
        self.values.append(state)
        self.histories.append(history)
        self.positions.insert(key, at: self.keys.count - 1, keys: self.keys)
    }

    /// Removes the pair at `position`; the last pair takes its place.
    private mutating func remove(at position: Int) {
        let last = self.keys.count - 1
        self.positions.remove(self.keys[position], keys: self.keys)
        if position != last {
            self.positions.move(self.keys[last], from: last, to: position, keys: self.keys)
            self.keys.swapAt(position, last)
            self.values.swapAt(position, last)
            self.histories.swapAt(position, last)
        }
        self.keys.removeLast()
        self.values.removeLast()
        self.histories.removeLast()
    }
}

/// An open-addressing table of positions into a key array: linear probing, at most half full,
/// removal by shifting the entries after a hole back (no tombstones to clean up).
struct PositionTable: Sendable {
    /// A position plus one; zero is an empty slot.
    private var slots: [UInt32] = []
    private var count = 0
    /// The hash's seed, drawn from the process's random hashing key: where a name lands cannot
    /// be worked out from outside (the pairs are bounded by `limits.max_pairs` anyway).
    private static let seed: Int = {
        var hasher = Hasher()
        hasher.combine(0x5EED)
        return hasher.finalize()
    }()

    @inline(__always)
    private func home(of key: PairKey) -> Int {
        key._rawHashValue(seed: Self.seed) & (self.slots.count - 1)
    }

    @inline(__always)
    func find(_ key: PairKey, in keys: [PairKey]) -> Int? {
        guard !self.slots.isEmpty else { return nil }
        let mask = self.slots.count - 1
        var slot = self.home(of: key)
        while true {
            let entry = self.slots[slot]
            if entry == 0 { return nil }
            if keys[Int(entry) - 1] == key { return Int(entry) - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Records that `key` is at `position` (`keys` already holds it there).
    mutating func insert(_ key: PairKey, at position: Int, keys: [PairKey]) {
        if (self.count + 1) * 2 > self.slots.count { self.grow(keys: keys, except: position) }
        self.place(key, entry: UInt32(position + 1))
        self.count += 1
    }

    /// Forgets `key` (`keys` still holds it).
    mutating func remove(_ key: PairKey, keys: [PairKey]) {
        guard var hole = self.slot(of: key, keys: keys) else { return }
        let mask = self.slots.count - 1
        self.slots[hole] = 0
        self.count -= 1
        // Entries after the hole that would not be found past it move back into it.
        var slot = (hole + 1) & mask
        while self.slots[slot] != 0 {
            let home = self.home(of: keys[Int(self.slots[slot]) - 1])
            // `home` lies cyclically outside (hole, slot]: the entry probes through the hole.
            let distanceToSlot = (slot - home) & mask
            let distanceToHole = (hole - home) & mask
            if distanceToHole < distanceToSlot {
                self.slots[hole] = self.slots[slot]
                self.slots[slot] = 0
                hole = slot
            }
            slot = (slot + 1) & mask
        }
    }

    /// `key`, found at `old`, is at `new` from now on.
    mutating func move(_ key: PairKey, from old: Int, to new: Int, keys: [PairKey]) {
        guard let slot = self.slot(of: key, keys: keys) else { return }
        self.slots[slot] = UInt32(new + 1)
    }

    private func slot(of key: PairKey, keys: [PairKey]) -> Int? {
        guard !self.slots.isEmpty else { return nil }
        let mask = self.slots.count - 1
        var slot = self.home(of: key)
        while self.slots[slot] != 0 {
            if keys[Int(self.slots[slot]) - 1] == key { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ key: PairKey, entry: UInt32) {
        let mask = self.slots.count - 1
        var slot = self.home(of: key)
        while self.slots[slot] != 0 { slot = (slot + 1) & mask }
        self.slots[slot] = entry
    }

    /// Doubles the slots (16 at first) and places every key but the one being inserted again.
    private mutating func grow(keys: [PairKey], except inserted: Int) {
        self.slots = [UInt32](repeating: 0, count: max(16, self.slots.count * 2))
        for position in keys.indices where position != inserted {
            self.place(keys[position], entry: UInt32(position + 1))
        }
    }
}
