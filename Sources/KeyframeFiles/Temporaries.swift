#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The names of the temporary files and scratch folders Keyframe's writers make, and the sweep that removes those
/// whose writer is gone.
///
/// Every temporary names its writer: ``AtomicFile`` writes `.<name>.<pid>-<random>.tmp` beside its target, and a
/// ``ScratchFolder`` is `keyframe-<purpose>-<pid>-<random>`. The writer holds a `flock(2)` on the temporary while it
/// uses it. A temporary is *stale* when its writer's process no longer runs (`kill(pid, 0)`) and nobody holds its lock
/// (the lock keeps a writer in another pid namespace sharing the folder safe). Only a `kill -9`, a crash or a power
/// cut leaves one behind; the next Keyframe process that writes into the folder removes it (``sweep(_:)``, which
/// ``AtomicFile`` runs once per process for every folder it writes into or checks). Names of other patterns are never
/// touched, nor anything that is not a regular file (for temporary files) or a folder (for scratch folders).
public enum Temporaries {
    /// The file-name suffix of every temporary file.
    public static let fileSuffix = ".tmp"
    /// The prefix of every scratch folder's name.
    public static let scratchPrefix = "keyframe-"
    /// Target names longer than this (in UTF-8 bytes) are cut in their temporary's name, so that the temporary's
    /// name stays within the 255-byte limit of file names.
    static let longestNamePart = 200

    // MARK: Names

    /// `.<name>.<pid>-<random>.tmp`: the name of a temporary file that will become `name`.
    static func fileName(for name: String) -> String {
        ".\(cut(name)).\(getpid())-\(randomWord())\(fileSuffix)"
    }

    /// `keyframe-<purpose>-<pid>-<random>`: the name of a scratch folder.
    static func scratchName(purpose: ScratchFolder.Purpose) -> String {
        "\(scratchPrefix)\(purpose.rawValue)-\(getpid())-\(randomWord())"
    }

    /// The process id in a temporary file's name (`.<name>.<pid>-<random>.tmp`), or `nil` for any other name.
    static func fileWriter(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(fileSuffix) else { return nil }
        let body = name.dropFirst().dropLast(fileSuffix.count)
        guard let dot = body.lastIndex(of: "."), dot != body.startIndex else { return nil }
        let mark = body[body.index(after: dot)...].split(separator: "-", omittingEmptySubsequences: false)
        guard mark.count == 2, isRandomWord(mark[1]) else { return nil }
        return processID(mark[0])
    }

    /// Whether `name` is a temporary file name of the form Keyframe wrote before names carried the writer
    /// (`.<name>.<random>.tmp`): only the owner of a locked folder may remove those (see ``sweepTree(_:includingUnmarked:)``).
    static func isUnmarkedFileName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(fileSuffix), fileWriter(name) == nil else { return false }
        let body = name.dropFirst().dropLast(fileSuffix.count)
        guard let dot = body.lastIndex(of: "."), dot != body.startIndex else { return false }
        return isRandomWord(body[body.index(after: dot)...])
    }

    /// The process id in a scratch folder's name, or `nil` for any other name: `keyframe-<purpose>-<pid>-<random>`
    /// with a ``ScratchFolder/Purpose``, or the form of earlier versions, `keyframe-<purpose>-<pid>-<UUID>`.
    static func scratchWriter(_ name: String) -> pid_t? {
        guard name.hasPrefix(scratchPrefix) else { return nil }
        let rest = name.dropFirst(scratchPrefix.count)
        for purpose in ScratchFolder.Purpose.allCases where rest.hasPrefix(purpose.rawValue + "-") {
            let tail = rest.dropFirst(purpose.rawValue.count + 1)
            guard let dash = tail.firstIndex(of: "-"), let pid = processID(tail[..<dash]) else { continue }
            let random = tail[tail.index(after: dash)...]
            if isRandomWord(random) || isUUID(random) { return pid }
        }
        return nil
    }

    // MARK: Sweeping

    /// Removes the stale temporary files and scratch folders directly inside `folder` (not below it). Returns the
    /// names removed.
    @discardableResult
    public static func sweep(_ folder: String) -> [String] {
        sweep(folder, includingUnmarked: false)
    }

    /// Removes the stale temporary files in `root` and every folder below it (links are not followed), and the stale
    /// scratch folders among them. With `includingUnmarked`, also temporary files of the older unmarked form
    /// (`.<name>.<random>.tmp`), whose writer cannot be known: only for a folder whose owner holds its lock, so that
    /// no other Keyframe process writes there. Returns the paths removed, relative to `root`.
    @discardableResult
    public static func sweepTree(_ root: String, includingUnmarked: Bool = false) -> [String] {
        var removed: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            let prefix = relative.isEmpty ? "" : relative + "/"
            removed += sweep(folder, includingUnmarked: includingUnmarked).map { prefix + $0 }
            for name in entries(of: folder) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
                pending.append(prefix + name)
            }
        }
        return removed.sorted()
    }

    /// ``sweep(_:)`` the first time this process meets `folder`; later calls return at once.
    static func sweepOnce(_ folder: String) {
        guard sweptFolders.insert(folder) else { return }
        sweep(folder)
    }

    private static func sweep(_ folder: String, includingUnmarked: Bool) -> [String] {
        var removed: [String] = []
        for name in entries(of: folder) {
            let path = folder + "/" + name
            if let writer = fileWriter(name) {
                guard isRegularFile(path), !isRunning(writer), !isLocked(path, folder: false) else { continue }
                if unlink(path) == 0 { removed.append(name) }
            } else if includingUnmarked, isUnmarkedFileName(name) {
                guard isRegularFile(path), !isLocked(path, folder: false) else { continue }
                if unlink(path) == 0 { removed.append(name) }
            } else if let writer = scratchWriter(name) {
                var info = stat()
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, !isRunning(writer),
                    !isLocked(path, folder: true)
                else { continue }
                if removeTree(path) { removed.append(name) }
            }
        }
        return removed.sorted()
    }

    // MARK: Helpers

    /// Whether process `pid` runs (or exists and belongs to someone else). This process always runs.
    static func isRunning(_ pid: pid_t) -> Bool {
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Whether someone holds a lock on the file or folder at `path` (a file system without `flock` says no).
    static func isLocked(_ path: String, folder: Bool) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (folder ? O_DIRECTORY : 0))
        guard fd >= 0 else { return errno != ENOENT }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in `folder`, without `.` and `..` (none when it cannot be read).
    static func entries(of folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `path` and, when it is a folder, everything in it; links are removed, never followed.
    @discardableResult
    static func removeTree(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return unlink(path) == 0 || errno == ENOENT }
        for name in entries(of: path) { removeTree(path + "/" + name) }
        return rmdir(path) == 0 || errno == ENOENT
    }

    /// `name` cut to at most ``longestNamePart`` UTF-8 bytes, at a character boundary.
    private static func cut(_ name: String) -> String {
        guard name.utf8.count > longestNamePart else { return name }
        var result = ""
        var count = 0
        for character in name {
            count += character.utf8.count
            if count > longestNamePart { break }
            result.append(character)
        }
        return result
    }

    private static func randomWord() -> String { String(UInt64.random(in: 0...UInt64.max), radix: 36) }

    private static func isRandomWord<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.count <= 13 && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."z").contains($0) }
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hexadecimal digits.
    private static func isUUID<S: StringProtocol>(_ text: S) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    private static func processID<S: StringProtocol>(_ text: S) -> pid_t? {
        guard !text.isEmpty, text.count <= 10, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int32(text), value > 0
        else { return nil }
        return value
    }

    /// The folders this process has swept.
    private static let sweptFolders = LockedSet()
}

/// A set of strings shared between threads (KeyframeFiles has no Foundation lock).
private final class LockedSet: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var members: Set<String> = []

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    /// Adds `member`; `false` when it was there already. The caller's work for a new member runs outside the lock.
    func insert(_ member: String) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return members.insert(member).inserted
    }
}
