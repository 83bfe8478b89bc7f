import SyncmonClient
import SyncmonCore

/// A min-heap of items by time; items due at the same time come out in insertion order, so a
/// seeded simulation is reproducible.
struct TimedQueue<Item: Sendable>: Sendable {
    /// One scheduled item.
    private struct Entry: Sendable {
        var time: Timestamp
        var order: UInt64
        var item: Item

        func precedes(_ other: Entry) -> Bool {
            self.time != other.time ? self.time < other.time : self.order < other.order
        }
    }

    /// The heap, in array form.
    private var entries: [Entry] = []
    /// The insertion counter.
    private var inserted: UInt64 = 0

    var isEmpty: Bool { self.entries.isEmpty }
    var count: Int { self.entries.count }

    /// When the first item is due.
    var firstTime: Timestamp? { self.entries.first?.time }

    mutating func insert(_ item: Item, at time: Timestamp) {
        self.entries.append(Entry(time: time, order: self.inserted, item: item))
        self.inserted += 1
        var child = self.entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard self.entries[child].precedes(self.entries[parent]) else { break }
            self.entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> (time: Timestamp, item: Item)? {
        guard !self.entries.isEmpty else { return nil }
        self.entries.swapAt(0, self.entries.count - 1)
        let first = self.entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < self.entries.count, self.entries[left].precedes(self.entries[smallest]) { smallest = left }
            if right < self.entries.count, self.entries[right].precedes(self.entries[smallest]) { smallest = right }
            guard smallest != parent else { break }
            self.entries.swapAt(parent, smallest)
            parent = smallest
        }
        return (first.time, first.item)
    }
}
