/// A scenario that moved because a stub answered.
///
/// A class, so a journal record holds one pointer for it: most requests move no scenario, and
/// three strings inline made every record (moved into its ticket and out again per request)
/// half again as large.
final class ScenarioTransition {
    let name: String
    let from: String
    let to: String

    init(name: String, from: String, to: String) {
        self.name = name
        self.from = from
        self.to = to
    }
}
