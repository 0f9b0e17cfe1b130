import Foundation

/// A scenario moving from one state to another.
public struct ScenarioTransition: Codable, Sendable, Equatable {
    /// The scenario that moved.
    public var name: String
    /// Its state before the request.
    public var from: String
    /// Its state after the request.
    public var to: String
}
