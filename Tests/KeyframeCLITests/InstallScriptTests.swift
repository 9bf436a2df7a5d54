import Foundation
import KeyframeTestSupport
import XCTest

/// `make test` on a fresh machine waits for apt's lock instead of failing at once (trust trial, class 12): every
/// `apt-get` call of the install scripts passes `DPkg::Lock::Timeout`, and while another process holds the lock the
/// script says which process it waits for. Before: `Could not get lock /var/lib/dpkg/lock-frontend`, exit 100, when
/// unattended upgrades ran beside it.
final class InstallScriptTests: XCTestCase {
    var script: URL { TestPaths.packageRoot.appendingPathComponent("Scripts/ensure-deps.sh") }

    func testEveryAptGetCallWaitsForTheLock() throws {
        var calls = 0
        for file in ["Scripts/ensure-deps.sh", "Makefile"] {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("$sudo apt-get ")
                || line.trimmingCharacters(in: .whitespaces).hasPrefix("apt-get ") {
                calls += 1
                XCTAssertTrue(line.contains("apt_options") || line.contains("DPkg::Lock::Timeout"),
                              "\(file): \(line) does not wait for apt's lock")
            }
        }
        XCTAssertGreaterThanOrEqual(calls, 2)
        let text = try String(contentsOf: script, encoding: .utf8)
        XCTAssertTrue(text.contains(#"apt_options=(-o "DPkg::Lock::Timeout=$lock_wait")"#))
    }

    /// A lock held by this test process (an fcntl write lock, as dpkg and apt take theirs) is announced with the
    /// holder's name and pid; a free lock says nothing.
    func testAHeldLockIsAnnouncedWithItsHolder() throws {
        let folder = try TestPaths.temporaryFolder("apt-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = folder.appendingPathComponent("lock-frontend").path
        FileManager.default.createFile(atPath: lock, contents: Data())
        let function = folder.appendingPathComponent("say.sh").path
        // The script's own function, run on its own (the rest of the script installs packages).
        let text = try String(contentsOf: script, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "say_if_locked() {"))
        let end = try XCTUnwrap(text.range(of: "\n}\n", range: start.upperBound..<text.endIndex))
        try String(text[start.lowerBound..<end.upperBound]).write(toFile: function, atomically: true, encoding: .utf8)

        func announce() throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "lock_wait=900; source \"$1\"; say_if_locked", "bash", function]
            process.environment = ["KEYFRAME_APT_LOCKS": lock, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            let err = Pipe()
            process.standardError = err
            try process.run()
            let data = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            return String(decoding: data, as: UTF8.self)
        }
        XCTAssertEqual(try announce(), "")
        let fd = open(lock, O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        XCTAssertEqual(fcntl(fd, F_SETLK, &request), 0)
        let message = try announce()
        XCTAssertTrue(message.contains("keyframe: \(lock) is held by "), message)
        XCTAssertTrue(message.contains("(pid \(getpid()))"), message)
        XCTAssertTrue(message.contains("waiting up to 900s"), message)
    }
}
