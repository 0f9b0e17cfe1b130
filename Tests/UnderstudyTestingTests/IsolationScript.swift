import Testing
import UnderstudyTesting

/// One thing a parallel-isolation test does to its session (stubs in `Fixtures/isolation.json`).
enum IsolationStep: String, Sendable, CaseIterable {
    /// `GET /iso/seq`: a cycling sequence 200, 201, 202.
    case seq
    /// `GET /iso/exhaust`: 200 twice, then exhausted — unmatched 404.
    case exhaust
    /// `GET /iso/door`: 423 until the door scenario is `Open`, then 200.
    case door
    /// `POST /iso/door/open`: 204, moves the scenario to `Open`.
    case open
    /// `GET /iso/limited`: three per 10 minutes, then 429.
    case limited
    /// `GET /iso/nowhere`: no stub — unmatched 404, on purpose.
    case nowhere
    /// `POST /__admin/reset` on the session: sequences, scenario, rate limit and journal restart.
    case reset

    var method: String { self == .open ? "POST" : "GET" }

    var path: String {
        switch self {
        case .seq: "/iso/seq"
        case .exhaust: "/iso/exhaust"
        case .door: "/iso/door"
        case .open: "/iso/door/open"
        case .limited: "/iso/limited"
        case .nowhere: "/iso/nowhere"
        case .reset: "/__admin/reset"
        }
    }
}

/// What the journal must say about one request.
struct ExpectedEntry: Equatable, CustomStringConvertible {
    var method: String
    var path: String
    /// The status line sent (the journal's `status`, nil when none was).
    var status: Int?
    var matched: Bool
    var stub: String?
    var rateLimited: Bool

    init(_ step: IsolationStep, status: Int, stub: String?, rateLimited: Bool = false) {
        method = step.method
        path = step.path
        self.status = status
        matched = stub != nil
        self.stub = stub
        self.rateLimited = rateLimited
    }

    init(_ entry: RecordedRequest) {
        method = entry.method
        path = entry.path
        status = entry.status
        matched = entry.matched
        stub = entry.stub
        rateLimited = entry.rateLimited
    }

    var description: String {
        "\(method) \(path) → \(status.map(String.init) ?? "-")\(stub.map { " (\($0))" } ?? "")\(rateLimited ? " limited" : "")"
    }
}

/// What a session that has seen only this test's requests must answer: an independent model
/// of the stubs in `isolation.json`, so a neighbour's request that leaked in would show up as
/// a wrong status, a wrong count or a wrong `seq`.
struct IsolationModel {
    private(set) var journal: [ExpectedEntry] = []
    private(set) var seqServed = 0
    private(set) var exhaustServed = 0
    private(set) var doorOpen = false
    private(set) var limitedServed = 0

    /// The journal entry `step` produces (the reply's status is its `status`); `reset` gives none.
    mutating func apply(_ step: IsolationStep) -> ExpectedEntry? {
        let entry: ExpectedEntry
        switch step {
        case .reset:
            self = IsolationModel()
            return nil
        case .seq:
            entry = ExpectedEntry(step, status: [200, 201, 202][seqServed % 3], stub: "iso-seq")
            seqServed += 1
        case .exhaust where exhaustServed < 2:
            entry = ExpectedEntry(step, status: 200, stub: "iso-exhaust")
            exhaustServed += 1
        case .exhaust, .nowhere:
            entry = ExpectedEntry(step, status: 404, stub: nil)
        case .door:
            entry =
                doorOpen
                ? ExpectedEntry(step, status: 200, stub: "iso-door-opened")
                : ExpectedEntry(step, status: 423, stub: "iso-door-locked")
        case .open:
            entry = ExpectedEntry(step, status: 204, stub: "iso-door-open")
            doorOpen = true
        case .limited where limitedServed < 3:
            entry = ExpectedEntry(step, status: 200, stub: "iso-limited")
            limitedServed += 1
        case .limited:
            entry = ExpectedEntry(step, status: 429, stub: "iso-limited", rateLimited: true)
        }
        journal.append(entry)
        return entry
    }

    /// Requests in the journal no stub answered.
    var unmatchedCount: Int { journal.filter { !$0.matched }.count }
}

/// One parallel-isolation test: a numbered, distinct list of steps.
struct IsolationScript: Sendable, CustomTestStringConvertible {
    let number: Int
    let steps: [IsolationStep]

    var testDescription: String { "#\(number): " + steps.map(\.rawValue).joined(separator: " ") }

    /// Scripts that exercise each feature on purpose, then generated ones (a fixed-seed
    /// generator, so every run runs the same tests), all distinct, `count` in all.
    static func all(count: Int) -> [IsolationScript] {
        var lists: [[IsolationStep]] = [
            [.seq, .seq, .seq, .seq, .seq, .seq, .seq],  // the cycle comes round twice
            [.exhaust, .exhaust, .exhaust, .exhaust],  // exhausted: unmatched twice
            [.door, .open, .door, .door],  // scenario moves on
            [.limited, .limited, .limited, .limited, .limited],  // rate limit refuses the 4th and 5th
            [.nowhere],  // nothing but an unmatched request
            [.seq, .seq, .reset, .seq, .seq],  // reset restarts sequence and seq
            [.open, .reset, .door],  // reset puts the scenario back
            [.limited, .limited, .limited, .reset, .limited],  // reset frees the rate limit
            [.exhaust, .exhaust, .exhaust, .reset, .exhaust, .exhaust],  // reset revives an exhausted stub
            [.nowhere, .reset, .seq],  // reset forgets an unmatched request
        ]
        var seen = Set(lists.map { $0.map(\.rawValue).joined(separator: " ") })
        var generator = SplitMix64(seed: 0x5EED_0011)
        while lists.count < count {
            let length = 3 + Int(generator.next() % 10)
            let steps = (0..<length).map { _ in
                IsolationStep.allCases[Int(generator.next() % UInt64(IsolationStep.allCases.count))]
            }
            guard seen.insert(steps.map(\.rawValue).joined(separator: " ")).inserted else { continue }
            lists.append(steps)
        }
        return lists.enumerated().map { IsolationScript(number: $0.offset, steps: $0.element) }
    }
}

/// A small deterministic generator (SplitMix64), so the generated tests are the same every run.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
