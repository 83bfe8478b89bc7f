/// What became of one delivery: delivered, or failed with the reason in words (the command's
/// exit status and last stderr line, the MTA's answer, the HTTP status).
public enum DeliveryOutcome: Sendable, Equatable {
    case delivered
    case failed(String)
}
