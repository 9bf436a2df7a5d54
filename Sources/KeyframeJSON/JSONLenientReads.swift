#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What lenient accessors accepted in one file that its format does not allow — a number written as a string
/// (`"frameRate": "24"`), a Boolean written as text — so that the importer can say so in a diagnostic instead of
/// reading it silently.
///
/// A root cursor made with a log (``JSONCursor/init(_:path:lenientReads:)``) hands it to every cursor reached from
/// it, and ``JSONCursor/lenientNumber()`` records into it on its own, so a reader cannot be lenient without the
/// reading being recorded. Safe to share between threads.
public final class JSONLenientReads: @unchecked Sendable {
    /// One value read leniently.
    public struct Entry: Sendable, Equatable {
        /// What kind of leniency: a stable code such as `number-as-string`.
        public var code: String
        /// The value as the file wrote it (`"24"`).
        public var found: String
        /// What it was read as (`24`).
        public var readAs: String
        /// Where it is.
        public var path: JSONPath

        public init(code: String, found: String, readAs: String, path: JSONPath) {
            self.code = code
            self.found = found
            self.readAs = readAs
            self.path = path
        }
    }

    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var recorded: [Entry] = []

    public init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Records one lenient read.
    public func record(_ entry: Entry) {
        pthread_mutex_lock(lock)
        recorded.append(entry)
        pthread_mutex_unlock(lock)
    }

    /// Every lenient read, in the order they happened.
    public var entries: [Entry] {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return recorded
    }
}
