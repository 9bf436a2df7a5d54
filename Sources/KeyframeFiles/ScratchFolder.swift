#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A private working folder, `keyframe-<purpose>-<pid>-<random>` in the system's temporary folder (`$TMPDIR`, else
/// `/tmp`), locked (`flock`) for as long as this object lives and removed with everything in it by ``remove()`` or
/// when the object goes away.
///
/// Creating one first removes the scratch folders that writers which are gone left in the same folder (a `kill -9`
/// or a crash of `verify` or `preview` leaves hundreds of megabytes of frames): see ``Temporaries``.
public final class ScratchFolder: @unchecked Sendable {
    /// What a scratch folder is for; part of its name, and the only names the sweep recognises.
    public enum Purpose: String, CaseIterable, Sendable {
        case verify
        case preview
        case benchRender = "bench-render"
        case benchPreview = "bench-preview"
        case benchBatch = "bench-batch"
        /// `render --animated` without `-o`: the frames are only a step towards the animation.
        case animated
    }

    /// The folder's path.
    public let path: String
    private var descriptor: Int32

    /// Creates a new scratch folder in `parent` (default: the system's temporary folder), after removing the stale
    /// scratch folders there.
    ///
    /// - Throws: ``FileWriteError`` when the folder cannot be created.
    public init(_ purpose: Purpose, in parent: String? = nil) throws(FileWriteError) {
        let folder = parent ?? ScratchFolder.systemTemporaryFolder
        Temporaries.sweepOnce(folder)
        var created: String? = nil
        var reason = ""
        for _ in 0..<8 where created == nil {
            let candidate = folder + "/" + Temporaries.scratchName(purpose: purpose)
            if mkdir(candidate, 0o700) == 0 { created = candidate; break }
            reason = String(cString: strerror(errno))
            if errno != EEXIST { break }
        }
        guard let created else {
            throw FileWriteError(path: folder, reason: "cannot create a scratch folder in it: \(reason)")
        }
        path = created
        descriptor = open(created, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 { _ = flock(descriptor, LOCK_EX) }
    }

    /// `$TMPDIR` without a trailing slash, else `/tmp`.
    public static var systemTemporaryFolder: String {
        var folder = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/tmp" : folder
    }

    /// Removes the folder and everything in it (links inside are removed, not followed), and releases its lock.
    public func remove() {
        guard descriptor != -2 else { return }
        Temporaries.removeTree(path)
        if descriptor >= 0 { close(descriptor) }
        descriptor = -2
    }

    deinit { remove() }
}
