#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import UnderstudyCore

/// `understudy record --session`: records inside a session of a running daemon, so a suite sharing
/// one daemon records one test's traffic without a second process or port of its own.
///
/// The session's only stub is the catch-all proxy; its body carries `"recording"`, so the daemon
/// journals whole bodies there and its `POST /__admin/recordings/stop` writes `--out` through the
/// one recording writer. This process only waits: on SIGTERM/SIGINT it calls that route itself;
/// when someone else did, it sees the session marked `written`. Either way it deletes the session.
extension RecordCommand {
    /// How often the session is looked at while waiting for a signal.
    private static let pollNanoseconds = 250_000_000
    /// Every this many looks the session's own port is asked for its health: requests there are
    /// what keeps a session from being reclaimed by the daemon's `--session-idle-timeout`.
    private static let keepAliveEvery = 40

    func recordInSession() throws {
        guard let url = adminUrl ?? environment("UNDERSTUDY_URL") else {
            Console.error(
                "understudy record: --session records in a running daemon: name it with --admin-url "
                    + "http://127.0.0.1:PORT (or set UNDERSTUDY_URL)")
            throw ExitCode(1)
        }
        let token = environment("UNDERSTUDY_ADMIN_TOKEN")
        guard let daemon = DaemonAdminClient(url: url, token: token) else {
            Console.error("understudy record: --admin-url \(url) is not a daemon's http://HOST:PORT")
            throw ExitCode(1)
        }
        // Blocked from here on, the signals wait for sigtimedwait: one that comes while the session
        // is being made is handled once it exists, not lost.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigprocmask(SIG_BLOCK, &signals, nil)

        let (id, sessionURL, sessionPort) = try createSession(on: daemon, url: url)
        guard let session = DaemonAdminClient(url: sessionURL, token: token) else {
            Console.error(
                "understudy record: the daemon answered a session URL that is not http://HOST:PORT: \(sessionURL)")
            _ = try? daemon.call("DELETE", "/__admin/sessions/\(id)")
            throw ExitCode(1)
        }
        do {
            if let pidFile { try StateFiles.writeAtomically("\(getpid())\n", to: pidFile) }
            if let portFile { try StateFiles.writeAtomically("\(sessionPort)\n", to: portFile) }
        } catch {
            Console.error("understudy record: \(error)")
            StateFiles.remove(pidFile)
            StateFiles.remove(portFile)
            _ = try? daemon.call("DELETE", "/__admin/sessions/\(id)")
            throw ExitCode(1)
        }
        // The pid file goes last: `understudy stop` returns once it is gone, and the stubs are written by then.
        defer {
            StateFiles.remove(portFile)
            StateFiles.remove(pidFile)
        }
        if detachedChild { Detacher.redirect(2, toDevice: "/dev/null") }
        Console.out("understudy listening on \(sessionURL) session \(id)")
        if detachedChild { Detacher.redirect(1, toDevice: "/dev/null") }

        var looks = 0
        while true {
            var pause = timespec(tv_sec: 0, tv_nsec: Self.pollNanoseconds)
            let received = sigtimedwait(&signals, nil, &pause)
            if received == SIGTERM || received == SIGINT {
                try stopAndDelete(id, session: session, daemon: daemon)
                return
            }
            looks += 1
            let state: DaemonAdminClient.Response
            do {
                state = try daemon.call("GET", "/__admin/sessions/\(id)")
                if looks % Self.keepAliveEvery == 0 { _ = try session.call("GET", "/__admin/health") }
            } catch {
                Console.error("understudy record: the daemon at \(url) is gone (\(error)); nothing was written")
                throw ExitCode(1)
            }
            guard state.status == 200 else {
                Console.error(
                    "understudy record: session \(id) is gone before the recording was written (\(state.message)); "
                        + "nothing was written")
                throw ExitCode(1)
            }
            if state.json?["recording"]?["written"] == .bool(true) {
                _ = try? daemon.call("DELETE", "/__admin/sessions/\(id)")
                Console.error(
                    "understudy record: POST /__admin/recordings/stop wrote \(absoluteOut); session \(id) deleted")
                return
            }
        }
    }

    /// An environment variable's value; nil when unset or empty.
    private func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// `--out` as the daemon must read it: the daemon resolves paths against its own directory.
    var absoluteOut: String {
        if out.hasPrefix("/") { return out }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return out }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return directory + "/" + out
    }

    /// `POST /__admin/sessions` with the proxy and the recording; the session's id, URL and port.
    private func createSession(on daemon: DaemonAdminClient, url: String) throws -> (String, String, Int) {
        var recordingPlan = recording.options(upstream: to).json
        if case .object(let members) = recordingPlan {
            recordingPlan = .object([JSONMember("out", .string(absoluteOut))] + members)
        }
        let body = JSONValue.object([
            JSONMember("name", .string("understudy record --to \(to)")),
            JSONMember("stubs", [proxyStubValue]),
            JSONMember("recording", recordingPlan),
        ])
        let created: DaemonAdminClient.Response
        do {
            created = try daemon.call("POST", "/__admin/sessions", body: body.jsonBytes)
        } catch {
            Console.error("understudy record: no daemon to record in at \(url): \(error)")
            throw ExitCode(1)
        }
        guard created.status == 201, let json = created.json, let id = json["id"]?.stringValue,
            let sessionURL = json["url"]?.stringValue, let port = json["port"]?.intValue
        else {
            Console.error(
                "understudy record: the daemon at \(url) did not make a session (HTTP \(created.status)): \(created.message)"
            )
            throw ExitCode(1)
        }
        return (id, sessionURL, port)
    }

    /// Has the daemon write the recording (unless the stop route already did), then deletes the session.
    private func stopAndDelete(_ id: String, session: DaemonAdminClient, daemon: DaemonAdminClient) throws {
        let stopped: DaemonAdminClient.Response
        do {
            stopped = try session.call("POST", "/__admin/recordings/stop", body: [])
        } catch {
            Console.error("understudy record: session \(id) did not answer (\(error)); nothing was written")
            throw ExitCode(1)
        }
        _ = try? daemon.call("DELETE", "/__admin/sessions/\(id)")
        guard stopped.status == 200, let json = stopped.json else {
            Console.error("understudy record: \(stopped.message); session \(id) deleted")
            throw ExitCode(1)
        }
        for warning in json["warnings"]?.arrayValue ?? [] {
            Console.error("understudy record: \(warning.stringValue ?? "")")
        }
        let files = (json["files"]?.arrayValue ?? []).compactMap(\.stringValue)
        Console.error(
            "understudy record: \(json["stubs"]?.intValue ?? 0) stubs from \(json["exchanges"]?.intValue ?? 0) "
                + "exchanges: \(files.map { "\(absoluteOut)/\($0)" }.joined(separator: " ")); session \(id) deleted")
    }
}
