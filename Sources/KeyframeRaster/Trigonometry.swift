#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Sine and cosine without Foundation, from the platform C library.
extension Double {
    package var sineValue: Double { sin(self) }
    var cosineValue: Double { cos(self) }
}
