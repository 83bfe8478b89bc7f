import SyncmonAdapters
import Testing

/// `--tool auto`: the program found through the wrappers people put in front of their jobs.
@Suite("Tool detection through wrappers")
struct CommandWrappersTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        /// The program found, `nil` when none is.
        var program: String?
        var tool: WrappedTool?
        var testDescription: String { self.command }

        init(_ command: String, _ program: String?, _ tool: WrappedTool? = nil) {
            self.command = command
            self.program = program
            self.tool = tool
        }
    }

    static let cases: [Case] = [
        Case("rclone sync /srv/photos remote:photos", "rclone", .rclone),
        Case("/usr/bin/restic backup /home", "/usr/bin/restic", .restic),
        Case("rsync -a /srv/ backup:/srv/", "rsync", .rsync),
        Case("rsync-mirror.sh --all", "rsync-mirror.sh", nil),
        Case("borg create ::today /home", "borg", nil),
        Case("sudo rclone sync a b", "rclone", .rclone),
        Case("sudo -u backup -H restic backup /home", "restic", .restic),
        Case("sudo -Hu backup restic backup /home", "restic", .restic),
        Case("sudo -ubackup restic backup /home", "restic", .restic),
        Case("sudo --user=backup -- rsync -a a b", "rsync", .rsync),
        Case("sudo RESTIC_PASSWORD_FILE=/etc/pw restic backup /home", "restic", .restic),
        Case("sudo -l", nil),
        Case("nice -n 19 rclone copy a b", "rclone", .rclone),
        Case("nice -19 rclone copy a b", "rclone", .rclone),
        Case("nice --adjustment=10 rsync -a a b", "rsync", .rsync),
        Case("ionice -c3 restic backup /", "restic", .restic),
        Case("ionice -c 2 -n 7 nice -n 19 rsync -a a b", "rsync", .rsync),
        Case("ionice -p 42", nil),
        Case("chrt -i 0 rclone sync a b", "rclone", .rclone),
        Case("taskset -c 0,1 restic backup /", "restic", .restic),
        Case("flock -n /run/lock/backup.lock restic backup /home", "restic", .restic),
        Case("flock -w 60 /run/lock/backup.lock rclone sync a b", "rclone", .rclone),
        Case("flock --timeout 60 /run/lock/backup.lock rclone sync a b", "rclone", .rclone),
        Case("flock /run/lock/backup.lock -c 'rclone sync a b'", nil),
        Case("systemd-run --scope -p MemoryMax=2G --unit backup rclone sync a b", "rclone", .rclone),
        Case("systemd-run --pipe --wait --property=CPUQuota=50% restic backup /", "restic", .restic),
        Case("systemd-inhibit --what=sleep --why=backup restic backup /", "restic", .restic),
        Case("env RCLONE_CONFIG=/etc/rclone.conf rclone sync a b", "rclone", .rclone),
        Case("env -i PATH=/usr/bin -u HOME rsync -a a b", "rsync", .rsync),
        Case("env -S 'rclone sync a b'", nil),
        Case("timeout 6h rclone sync a b", "rclone", .rclone),
        Case("timeout -k 1m -s INT 6h restic backup /", "restic", .restic),
        Case("timeout --kill-after=1m 6h rsync -a a b", "rsync", .rsync),
        Case("setpriv --reuid=backup --regid=backup --init-groups restic backup /", "restic", .restic),
        Case("runuser -u backup -- rclone sync a b", "rclone", .rclone),
        Case("runuser backup -c 'rclone sync a b'", nil),
        Case("nohup setsid stdbuf -oL rsync -a a b", "rsync", .rsync),
        Case("/usr/bin/time -v nocache rsync -a a b", "rsync", .rsync),
        Case("trickle -s -u 1000 rsync -a a b", "rsync", .rsync),
        Case("sudo -u backup flock -n /tmp/l ionice -c3 nice -n 19 timeout 6h env X=1 restic backup /", "restic", .restic),
        Case("sh -c 'rclone sync a b'", "sh", nil),
        Case("sudo", nil),
        Case("timeout 6h", nil),
    ]

    @Test("the program and tool a command runs", arguments: cases)
    func detection(_ testCase: Case) {
        let arguments = Self.words(testCase.command)
        let index = CommandWrappers.programIndex(in: arguments)
        #expect(index.map { arguments[$0] } == testCase.program)
        #expect(index.flatMap { WrappedTool(program: arguments[$0]) } == testCase.tool)
    }

    @Test("the documented list of wrappers")
    func names() {
        #expect(
            CommandWrappers.names == [
                "chrt", "doas", "env", "flock", "ionice", "nice", "nocache", "nohup", "runuser", "setpriv", "setsid", "stdbuf", "sudo",
                "systemd-inhibit", "systemd-run", "taskset", "time", "timeout", "trickle",
            ])
    }

    /// Words split on spaces, single quotes keeping a string together.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in command {
            if character == "'" {
                quoted.toggle()
            } else if character == " ", !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
