import Foundation
import SyncmonSockets

extension BlockingHTTPClient.Response {
    /// The body parsed as a JSON object.
    public func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(self.body)) as? [String: Any] else {
            throw TestSupportError("body is not a JSON object: \(self.text)")
        }
        return object
    }
}
