/// Names joined as a sentence says them: `a, b or c`, `a, b and c`.
package enum WordList {
    package static func joined(_ names: [String], _ conjunction: String = "or") -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}
