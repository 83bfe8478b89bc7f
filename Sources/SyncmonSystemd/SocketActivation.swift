import CSystemd
import Glibc

/// Reads the sockets systemd passed to the daemon (`LISTEN_FDS`, `LISTEN_FDNAMES`), for socket activation.
public enum SocketActivation {
    /// The descriptors passed to this process, with their names, in the socket unit's `Listen*=` order.
    ///
    /// The environment is left as it is (`unset_environment` 0) so a second call gives the same answer; libsystemd
    /// marks the descriptors close-on-exec, so children do not inherit them.
    ///
    /// - Returns: An empty array when the process was not socket-activated (or `LISTEN_PID` names another process).
    /// - Throws: ``SystemdError`` when the variables are malformed or a descriptor is not open.
    public static func listenedSockets() throws(SystemdError) -> [ActivatedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(0, &names)
        // libsystemd allocates the array and every string in it; free them whatever happens below.
        defer {
            if let names {
                var index = 0
                while let name = names[index] {
                    free(name)
                    index += 1
                }
                free(names)
            }
        }
        if count < 0 {
            throw SystemdError(operation: "sd_listen_fds_with_names", returnValue: count)
        }
        return (0..<Int(count)).map { index in
            let name = names?[index].map { String(cString: $0) } ?? "unknown"
            return ActivatedSocket(fileDescriptor: SD_LISTEN_FDS_START + Int32(index), name: name)
        }
    }
}
