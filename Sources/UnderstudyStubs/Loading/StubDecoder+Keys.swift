/// Checking an object's keys: unknown keys with the closest known one, repeated keys, and
/// missing required keys — one error when a missing key was simply misspelt.
extension StubDecoder {
    /// A key an object must have, with what to say when it is absent.
    package struct RequiredKey {
        var key: String
        /// Follows "missing key `key`; ".
        var why: String
    }

    /// Checks an object's keys and returns the first member for each known key.
    ///
    /// Reports unknown keys (with the closest known key), repeated keys and missing `required`
    /// keys. When a required key is missing and an unknown key looks like a misspelling of it,
    /// the two are one problem and get one error, at the unknown key: "unknown key `responsez`;
    /// did you mean `responses`? (`responses` is required)".
    package mutating func members(of node: JSONNode, _ path: JSONPath, known: [String], required: [RequiredKey] = [])
        -> ObjectMembers
    {
        guard let members = node.members else { return ObjectMembers() }
        var seen = ObjectMembers(capacity: members.count)
        var unknown: [JSONNode.Member] = []
        for member in members {
            if !known.contains(where: { ObjectMembers.sameKey($0, member.key) }) {
                unknown.append(member)
            } else if seen[member.key] != nil {
                fail(member.keyPosition, path.member(member.key), "key `\(member.key)` appears more than once")
            } else {
                seen[member.key] = member
            }
        }
        // Pair each missing required key with the unknown key that is most likely its misspelling.
        var misspelt: [String: String] = [:]
        var missing: [RequiredKey] = []
        for requirement in required where seen[requirement.key] == nil {
            let candidates = unknown.map(\.key).filter { misspelt[$0] == nil }
            if let typo = Self.misspelling(of: requirement.key, among: candidates, known: known) {
                misspelt[typo] = requirement.key
            } else {
                missing.append(requirement)
            }
        }
        for member in unknown {
            let memberPath = path.member(member.key)
            if let wanted = misspelt[member.key] {
                fail(
                    member.keyPosition, memberPath,
                    "unknown key `\(member.key)`; did you mean `\(wanted)`? (`\(wanted)` is required)",
                    suggestion: wanted)
            } else if let suggestion = EditDistance.closest(to: member.key, among: known) {
                fail(
                    member.keyPosition, memberPath, "unknown key `\(member.key)`; did you mean `\(suggestion)`?",
                    suggestion: suggestion)
            } else {
                let list = known.filter { !$0.hasPrefix("$") }.map { "`\($0)`" }.joined(separator: ", ")
                fail(member.keyPosition, memberPath, "unknown key `\(member.key)`; expected one of \(list)")
            }
        }
        for requirement in missing {
            fail(node.position, path, "missing key `\(requirement.key)`; \(requirement.why)")
        }
        return seen
    }

    /// The key among `unknown` that is most plausibly a misspelling of the missing `key`: within
    /// a third of its length in edits (at least 2; `closest` allows only 2) or a prefix of it
    /// (`resp`), and no closer to another known key. `nil` when none is.
    static func misspelling(of key: String, among unknown: [String], known: [String]) -> String? {
        var best: (word: String, distance: Int)?
        let allowed = max(2, key.count / 3)
        func isPrefix(_ word: String, of key: String) -> Bool {
            word.count >= 3 && key.lowercased().hasPrefix(word.lowercased())
        }
        for word in unknown {
            let distance = EditDistance.distance(word, key)
            let others = known.filter { $0 != key }
            if isPrefix(word, of: key) {
                // `resp` abbreviates `responses` unless it abbreviates another key as well.
                guard !others.contains(where: { isPrefix(word, of: $0) }) else { continue }
            } else {
                guard distance <= allowed, distance < key.count else { continue }
                // `setstate` is a misspelling of `setState`, not of a missing `responses`.
                guard !others.contains(where: { EditDistance.distance(word, $0) < distance }) else { continue }
            }
            if best == nil || distance < best!.distance { best = (word, distance) }
        }
        return best?.word
    }
}
