import SyncmonCore

/// A first-in, first-out buffer that grows by doubling and reuses its slots: appending and
/// removing from the front are O(1) (amortised for growth), which a client's queue needs because
/// appends happen on the caller's thread.
struct RingBuffer<Element> {
    /// The slots; `nil` where nothing is stored.
    private var storage: [Element?] = []
    /// The slot of the first element.
    private var head = 0
    /// The number of elements stored.
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { self.count == 0 }

    mutating func append(_ element: Element) {
        if self.count == self.storage.count { self.grow() }
        self.storage[(self.head + self.count) % self.storage.count] = element
        self.count += 1
    }

    /// Up to `maximum` elements from the front, in order, without removing them.
    func prefix(_ maximum: Int) -> [Element] {
        let taken = min(maximum, self.count)
        var result: [Element] = []
        result.reserveCapacity(taken)
        for offset in 0..<taken { result.append(self.storage[(self.head + offset) % self.storage.count]!) }
        return result
    }

    /// Removes up to `count` elements from the front.
    mutating func removeFirst(_ count: Int) {
        let removed = min(count, self.count)
        for offset in 0..<removed { self.storage[(self.head + offset) % self.storage.count] = nil }
        if removed > 0 { self.head = (self.head + removed) % self.storage.count }
        self.count -= removed
        if self.count == 0 { self.head = 0 }
    }

    /// Doubles the slots, moving the elements to the front.
    private mutating func grow() {
        var grown = [Element?](repeating: nil, count: max(16, self.storage.count * 2))
        for offset in 0..<self.count { grown[offset] = self.storage[(self.head + offset) % self.storage.count] }
        self.storage = grown
        self.head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
