/// A scenario that moved because a stub answered.
struct ScenarioTransition {
    var name: String
    var from: String
    var to: String
}
