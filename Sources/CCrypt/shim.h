// libxcrypt, for verifying the bcrypt hashes of basic_auth_users with crypt_rn
// (SyncmonDaemon.PasswordHash). The system's implementation, not a hand-written bcrypt.
#include <crypt.h>
