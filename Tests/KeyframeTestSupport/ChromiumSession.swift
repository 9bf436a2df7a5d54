#if canImport(Glibc)  // Linux first: the DevTools pipe is driven with Glibc's posix_spawn, pipe and poll.
import Foundation
import Glibc

/// A headless Chromium driven over the DevTools protocol through `--remote-debugging-pipe` (commands on the child's
/// fd 3, replies and events on its fd 4, each message a JSON text ended by a NUL byte), with one page attached.
///
/// Used by the preview tests to open a page from disk, press keys, click, read state and take screenshots, and to
/// watch every request the page makes (`Network.requestWillBeSent`), and by the Lottie tests to play exports in
/// lottie-web.
public final class ChromiumSession {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The browser executable on `PATH` (`chromium`, `chromium-browser`, `google-chrome`), or `nil`.
    public static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    private let profile: URL
    /// Whether pages record their requests' events (``requestedURLs``).
    private let watchNetwork: Bool
    /// Every event received so far (method and params).
    public private(set) var events: [(method: String, params: [String: Any])] = []
    /// The attached page's session.
    public private(set) var session = ""

    /// Starts the browser with a page of `width` × `height` CSS pixels (device scale 1). `watchNetwork` keeps every
    /// request's event (``requestedURLs``); pages that load large data URLs can do without.
    public init(executable: String, width: Int, height: Int, watchNetwork: Bool = true) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("kf-chromium-\(UUID().uuidString)")
        self.watchNetwork = watchNetwork
        var toChrome: [Int32] = [0, 0], fromChrome: [Int32] = [0, 0]
        guard pipe(&toChrome) == 0, pipe(&fromChrome) == 0, toChrome[0] > 4, fromChrome[1] > 4
        else { throw Failure(description: "cannot create pipes for Chromium") }
        // Only the dup2'd copies (3 and 4) may reach the browser.
        for fd in toChrome + fromChrome { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChrome[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromChrome[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--hide-scrollbars", "--mute-audio", "--force-device-scale-factor=1",
                         "--window-size=\(width),\(height)", "--user-data-dir=\(profile.path)", "about:blank"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, &argv, environ)
        Glibc.close(toChrome[0])
        Glibc.close(fromChrome[1])
        guard status == 0 else {
            Glibc.close(toChrome[1]); Glibc.close(fromChrome[0])
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        commands = toChrome[1]
        replies = fromChrome[0]
        try openPage(width: width, height: height)
    }

    private var target: String?

    /// Replaces the attached page with a fresh one of `width` × `height` CSS pixels (its own history, scripts and
    /// virtual-time policy), so the tests of a class can share one browser.
    public func openPage(width: Int, height: Int) throws {
        if let target {
            _ = try? send("Target.closeTarget", ["targetId": target], browser: true)
            self.target = nil
        }
        let created = try send("Target.createTarget", ["url": "about:blank"], browser: true)
        guard let targetID = created["targetId"] as? String else { throw Failure(description: "no target: \(created)") }
        target = targetID
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true], browser: true)
        guard let sessionID = attached["sessionId"] as? String else { throw Failure(description: "not attached") }
        session = sessionID
        events.removeAll()
        if watchNetwork { _ = try send("Network.enable") }
        _ = try send("Page.enable")
        try resize(width: width, height: height)
    }

    /// Sets the page's viewport to `width` × `height` CSS pixels at device scale 1.
    public func resize(width: Int, height: Int) throws {
        _ = try send("Emulation.setDeviceMetricsOverride",
                     ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }

    /// Makes the page's default background transparent, so screenshots keep the page's alpha.
    public func makeBackgroundTransparent() throws {
        _ = try send("Emulation.setDefaultBackgroundColorOverride", ["color": ["r": 0, "g": 0, "b": 0, "a": 0]])
    }

    /// Waits for the next event named `method` (one already received counts) and returns its parameters.
    @discardableResult
    public func waitForEvent(_ method: String, timeout: Double = 60) throws -> [String: Any] {
        if let index = events.firstIndex(where: { $0.method == method }) { return events.remove(at: index).params }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let message = try readMessage(until: deadline, waitingFor: method)
            guard let event = message["method"] as? String else { continue }
            let params = message["params"] as? [String: Any] ?? [:]
            if event == method { return params }
            events.append((event, params))
        }
    }

    /// Opens `url` on a virtual clock: time stands still until the page's document is committed, then runs only
    /// while no fetch is pending (so neither reading the file nor this machine's load counts), and stops after
    /// `budget` milliseconds of the page's own time. Returns once the budget is spent; the page is then frozen in
    /// that state for inspection.
    public func navigate(_ url: String, virtualTimeBudget budget: Double) throws {
        events.removeAll { $0.method == "Page.frameNavigated" || $0.method == "Emulation.virtualTimeBudgetExpired" }
        _ = try send("Emulation.setVirtualTimePolicy", ["policy": "pause"])
        _ = try send("Page.navigate", ["url": url])
        try waitForEvent("Page.frameNavigated")
        _ = try send("Emulation.setVirtualTimePolicy", ["policy": "pauseIfNetworkFetchesPending", "budget": budget])
        try waitForEvent("Emulation.virtualTimeBudgetExpired", timeout: 120)
    }

    deinit { close() }

    private var closed = false

    /// Closes the browser and removes its profile.
    public func close() {
        guard !closed else { return }
        closed = true
        _ = try? send("Browser.close", [:], browser: true, timeout: 5)
        Glibc.close(commands)
        Glibc.close(replies)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(100_000)
        }
        if kill(pid, 0) == 0 { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a command (to the page's session unless `browser`) and returns its result; events that arrive before
    /// the reply are kept in ``events``.
    @discardableResult
    public func send(_ method: String, _ params: [String: Any] = [:], browser: Bool = false, timeout: Double = 30) throws
        -> [String: Any]
    {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if !browser { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "cannot write to Chromium (\(method))") }
            offset += written
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let reply = try readMessage(until: deadline, waitingFor: method)
            if let replyID = reply["id"] as? Int, replyID == id {
                if let error = reply["error"] { throw Failure(description: "\(method) failed: \(error)") }
                return reply["result"] as? [String: Any] ?? [:]
            }
            if let event = reply["method"] as? String {
                events.append((event, reply["params"] as? [String: Any] ?? [:]))
            }
        }
    }

    /// Reads one NUL-terminated message.
    private func readMessage(until deadline: Date, waitingFor method: String) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let text = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return (try JSONSerialization.jsonObject(with: Data(text))) as? [String: Any] ?? [:]
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure(description: "Chromium did not answer \(method) in time") }
            var poller = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "Chromium closed the pipe (\(method))") }
            buffer += chunk[..<count]
        }
    }

    /// Evaluates `expression` in the page and returns its value (JSON-compatible values only).
    public func evaluate(_ expression: String, timeout: Double = 30) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true,
                                                   "awaitPromise": true], timeout: timeout)
        if let exception = result["exceptionDetails"] {
            let shown = expression.count > 300 ? expression.prefix(300) + "…" : Substring(expression)
            throw Failure(description: "\(shown): \(exception)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Polls `condition` (a JavaScript expression) until it is true.
    public func wait(for condition: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try evaluate(condition) as? Bool) == true { return }
            usleep(50_000)
        }
        throw Failure(description: "timed out waiting for \(condition)")
    }

    /// Navigates and waits for the load event.
    public func navigate(_ url: String) throws {
        _ = try send("Page.navigate", ["url": url])
        try wait(for: "document.readyState === 'complete'")
    }

    /// A PNG screenshot of a rectangle of the page, in CSS pixels at scale 1.
    public func screenshot(x: Double, y: Double, width: Double, height: Double) throws -> [UInt8] {
        let result = try send("Page.captureScreenshot", [
            "format": "png", "captureBeyondViewport": false,
            "clip": ["x": x, "y": y, "width": width, "height": height, "scale": 1],
        ])
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot data")
        }
        return [UInt8](data)
    }

    /// Presses and releases a key (`ArrowRight`, `Home`, `End`, ` `), with `shift` held when asked.
    public func press(key: String, code: String, keyCode: Int, shift: Bool = false) throws {
        for type in ["rawKeyDown", "keyUp"] {
            var params: [String: Any] = ["type": type, "key": key, "code": code, "windowsVirtualKeyCode": keyCode,
                                         "nativeVirtualKeyCode": keyCode, "modifiers": shift ? 8 : 0]
            if key == " " && type == "rawKeyDown" { params["text"] = " " }
            _ = try send("Input.dispatchKeyEvent", params)
        }
    }

    /// Clicks with the left button at a point of the page.
    public func click(x: Double, y: Double) throws {
        _ = try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": x, "y": y])
        for type in ["mousePressed", "mouseReleased"] {
            _ = try send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left",
                                                      "clickCount": 1])
        }
    }

    /// Presses the left button at one point, moves to another with it held (in `steps` moves), and releases it.
    public func drag(from start: (x: Double, y: Double), to end: (x: Double, y: Double), steps: Int = 5) throws {
        _ = try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": start.x, "y": start.y])
        _ = try send("Input.dispatchMouseEvent", ["type": "mousePressed", "x": start.x, "y": start.y, "button": "left",
                                                  "buttons": 1, "clickCount": 1])
        for step in 1...max(1, steps) {
            let f = Double(step) / Double(max(1, steps))
            _ = try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": start.x + (end.x - start.x) * f,
                                                      "y": start.y + (end.y - start.y) * f, "button": "left", "buttons": 1])
        }
        _ = try send("Input.dispatchMouseEvent", ["type": "mouseReleased", "x": end.x, "y": end.y, "button": "left",
                                                  "buttons": 0, "clickCount": 1])
    }

    /// The page rectangle of the element with this id: (x, y, width, height).
    public func rect(of id: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let value = try evaluate("""
            (() => { const r = document.getElementById('\(id)').getBoundingClientRect();
                     return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()
            """)
        guard let numbers = value as? [Double], numbers.count == 4 else {
            throw Failure(description: "no element \(id)")
        }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// URLs of every request the page started (`Network.requestWillBeSent`).
    public var requestedURLs: [String] {
        events.filter { $0.method == "Network.requestWillBeSent" }
            .compactMap { ($0.params["request"] as? [String: Any])?["url"] as? String }
    }
}
#endif
