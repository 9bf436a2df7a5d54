#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension AtomicFile {
    /// Makes every later write of this process refuse to replace one of `inputs` (``CommandInputs``): a command
    /// calls it once it knows what it reads, after checking the outputs it can name in advance, so that a write it
    /// could not name in advance (a frame, a picture) still never destroys an input. Replaces an earlier set.
    public static func protect(_ inputs: CommandInputs) {
        protectedInputs.set(inputs)
    }

    /// Whether `path` is one of the running command's protected inputs (``protect(_:)``): what a command must not
    /// remove either (`render --clean` of older frames).
    public static func isProtectedInput(_ path: String) -> Bool {
        protectedInputs.get()?.input(replacedBy: path) != nil
    }

    /// Throws when `path` is a protected input (see ``protect(_:)``).
    static func refuseInput(_ path: String) throws(FileWriteError) {
        guard let inputs = protectedInputs.get() else { return }
        try inputs.check(path)
    }

    /// The inputs no write may replace; `nil` until a command sets them.
    private static let protectedInputs = LockedInputs()
}

/// The protected inputs, shared between writer threads.
private final class LockedInputs: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var inputs: CommandInputs? = nil

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func set(_ value: CommandInputs) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        inputs = value.isEmpty ? nil : value
    }

    func get() -> CommandInputs? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return inputs
    }
}
