// PCRE2 with 8-bit code units (UTF-8 subjects). pcre2.h requires the width before it is
// included; Swift calls the `_8` functions directly, as it cannot see pcre2.h's aliasing macros.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
