import Foundation

/// A scenario moving from one state to another.
public struct ScenarioTransition: Codable, Sendable, Equatable {
    public var name: String
    public var from: String
    public var to: String
}
