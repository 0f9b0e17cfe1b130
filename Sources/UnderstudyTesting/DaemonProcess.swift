import Foundation

/// A running `understudy serve` child: its process and what it has written so far.
final class DaemonProcess: @unchecked Sendable {
    static let readinessPrefix = "understudy listening on "

    private let process: Process
    /// The daemon's stdin. Nothing is ever written; the write end stays open as long as this
    /// object (or the test process) lives, and with `--exit-on-stdin-eof` its closing — by the
    /// kernel, when this process dies, even by SIGKILL — stops the daemon.
    private let standardInput = Pipe()
    private let lock = NSLock()
    private var stdoutText = ""
    private var stderrText = ""
    private var readyURL: URL?
    /// The HTTPS URL after the plain one on the readiness line (`serve --https`).
    private var readyHTTPSURL: URL?
    private var exitStatus: Int32?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(binary: String, arguments: [String], environment: [String: String]? = nil) throws(UnderstudyError) {
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = standardInput
        // The write end is ours alone: a child launched later (another daemon, a curl) must not
        // inherit it, or this daemon would wait for that child too before it saw EOF.
        _ = fcntl(standardInput.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.terminationHandler = { [weak self] process in
            self?.update { $0.exitStatus = process.terminationStatus }
        }
        if let failure = Self.runWithDefaultSignalMask(process) {
            throw .launchFailed(binary: binary, reason: "\(failure)")
        }
        drain(stdout.fileHandleForReading) { [weak self] text in self?.update { $0.appendStdout(text) } }
        drain(stderr.fileHandleForReading) { [weak self] text in self?.update { $0.stderrText += text } }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { lock.withLock { exitStatus == nil } }
    var standardError: String { lock.withLock { stderrText } }
    /// The HTTPS URL from the readiness line, when the daemon serves HTTPS.
    var httpsURL: URL? { lock.withLock { readyHTTPSURL } }

    /// Waits until the readiness line, an exit, or the deadline.
    func waitUntilReady(timeout: TimeInterval) async throws(UnderstudyError) -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (url, status, out, err) = lock.withLock { (readyURL, exitStatus, stdoutText, stderrText) }
            if let url { return url }
            if let status {
                // Give the stderr reader a moment to catch the last words.
                try? await Task.sleep(nanoseconds: 50_000_000)
                throw .exitedBeforeReady(
                    status: status, stderr: lock.withLock { stderrText.isEmpty ? err : stderrText })
            }
            guard Date() < deadline else { throw .notReadyInTime(seconds: timeout, stdout: out, stderr: err) }
            await waitForChange(until: deadline)
        }
    }

    /// SIGTERM, then SIGKILL if it has not exited within `timeout`; waits for the exit.
    func stop(timeout: TimeInterval) async -> Int32? {
        if isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline { await waitForChange(until: deadline) }
        if isRunning {
            kill(process.processIdentifier, SIGKILL)
            let killDeadline = Date().addingTimeInterval(5)
            while isRunning, Date() < killDeadline { await waitForChange(until: killDeadline) }
        }
        return lock.withLock { exitStatus }
    }

    /// Terminates without waiting (for deinit paths).
    func terminateNow() {
        if isRunning { process.terminate() }
    }

    // MARK: Plumbing

    private func update(_ body: (DaemonProcess) -> Void) {
        lock.lock()
        body(self)
        let woken = waiters
        waiters = []
        lock.unlock()
        woken.forEach { $0.resume() }
    }

    private func appendStdout(_ text: String) {
        stdoutText += text
        guard readyURL == nil else { return }
        for line in stdoutText.split(separator: "\n") where line.hasPrefix(Self.readinessPrefix) {
            // The plain URL is the first one (an HTTPS URL may follow it).
            let urls = line.dropFirst(Self.readinessPrefix.count).split(separator: " ")
            readyURL = urls.first.flatMap { URL(string: String($0)) }
            readyHTTPSURL = urls.dropFirst().first.flatMap { URL(string: String($0)) }
        }
    }

    /// Sleeps until some output or the exit arrives, or a short poll interval passes (the
    /// interval bounds how late a deadline is noticed; it is not used to synchronise).
    private func waitForChange(until deadline: Date) async {
        let wait = min(max(deadline.timeIntervalSinceNow, 0), 0.1)
        await withCheckedContinuation { continuation in
            lock.withLock { waiters.append(continuation) }
            // Armed after the waiter is registered, so the wake-up cannot be missed.
            Task { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                self?.update { _ in }
            }
        }
    }

    /// Starts `process` from a thread whose signal mask is empty. A child inherits the mask of
    /// the thread that spawns it, and Dispatch / Swift-concurrency worker threads block nearly
    /// every signal — spawned from one, the daemon would never see the SIGTERM `stop()` sends.
    private static func runWithDefaultSignalMask(_ process: Process) -> (any Error)? {
        // A box, because `Process` is not `Sendable` on every platform; the semaphore orders access.
        final class Outcome: @unchecked Sendable {
            let process: Process
            var error: (any Error)?
            let done = DispatchSemaphore(value: 0)
            init(process: Process) { self.process = process }
        }
        let outcome = Outcome(process: process)
        let thread = Thread {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            do { try outcome.process.run() } catch { outcome.error = error }
            outcome.done.signal()
        }
        thread.start()
        outcome.done.wait()
        return outcome.error
    }

    /// Reads a pipe on its own thread until EOF, so the child never blocks on a full pipe.
    private func drain(_ handle: FileHandle, into sink: @escaping @Sendable (String) -> Void) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                sink(String(decoding: data, as: UTF8.self))
            }
        }
        thread.start()
    }
}
