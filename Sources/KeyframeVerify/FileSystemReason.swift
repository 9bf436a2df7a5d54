import Foundation

/// The plain-words reason of a Foundation file-system error (`No such file or directory`), never its domain and code.
enum FileSystemReason {
    static func describe(_ error: any Error) -> String {
        let error = error as NSError
        for candidate in [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 })
        where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        default: return "the file system refused the operation"
        }
    }
}
