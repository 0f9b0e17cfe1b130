#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import UnderstudyCore

/// The server's open connections and what they share on the loop thread.
///
/// Stored inline in ``HTTPServer`` (a value, not an object): the hot paths reach these fields at
/// a fixed offset from the server, with no second object to load or retain.
struct ConnectionTable {
    /// Open connections, in no order: each knows its place (``Connection/tableIndex``), so adding
    /// and removing one is constant time without hashing (a dictionary cost ~580 instructions a
    /// connection). Iterate over a copy when the loop may close connections.
    var connections: [Connection] = []
    /// Plain connections with output to write at the end of this loop pass, and the event that
    /// writes it (see `Connection+Socket.swift`).
    var unflushed: [Connection] = []
    var flushEvent: EventHandle?
    /// Where plain connections `recv` into, on the loop thread (one read at a time), before the
    /// bytes are appended to the connection's input buffer. Freed by the server's deinit.
    let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: ConnectionTable.readBufferSize, alignment: 16)
    static let readBufferSize = 65_536
    var dateHeader = DateHeader()
    /// The parser's limits, from the configuration.
    let limits: RequestHeadParser.Limits
    /// The idle timeout as libevent's common timeout for its length (one queue instead of the
    /// timer heap); nil when the timeout is off.
    let requestTimeout: timeval?

    init(limits: RequestHeadParser.Limits, requestTimeout: timeval?) {
        self.limits = limits
        self.requestTimeout = requestTimeout
    }

    /// A new connection joins the table.
    mutating func remember(_ connection: Connection) {
        connection.tableIndex = connections.count
        connections.append(connection)
    }

    /// A connection has closed: it leaves the table, the last one taking its place.
    mutating func forget(_ connection: Connection) {
        let index = connection.tableIndex
        guard index >= 0, index < connections.count, connections[index] === connection else { return }
        connection.tableIndex = -1
        let last = connections.removeLast()
        if index < connections.count {
            connections[index] = last
            last.tableIndex = index
        }
    }
}

/// The journal batch of one loop pass: journal lines of the pass are written together once its
/// callbacks have run, before any of its responses reach a socket (see ``JournalBatching``).
struct JournalBatch {
    /// Closes the batch at the end of the loop pass that opened it.
    var end: EventHandle?
    var open = false
    /// The responder as ``JournalBatching``, found once at start-up: a dynamic cast to a protocol
    /// costs a conformance lookup (~450 instructions) and this one ran twice per loop pass.
    var batching: (any JournalBatching)?
}
