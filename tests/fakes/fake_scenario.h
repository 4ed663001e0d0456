/* Scenario file reader shared by the fake driver libraries (test code, Linux only).
 *
 * The file is named by DLENV_FAKE_SCENARIO and read once, on first use. Format: one
 * `key = value` per line; blank lines and lines starting with `#` are ignored, and a `#`
 * preceded by white space starts a trailing comment. Keys and values are trimmed; a value
 * may be empty. When a key repeats, the last one wins. */
#ifndef DLENV_TESTS_FAKE_SCENARIO_H
#define DLENV_TESTS_FAKE_SCENARIO_H

#ifdef _WIN32
#define FAKE_HIDDEN
#define FAKE_EXPORT __declspec(dllexport)
#else
#define FAKE_HIDDEN __attribute__((visibility("hidden")))
#define FAKE_EXPORT __attribute__((visibility("default")))
#endif

/* Each exported function is checked against the typedef dlenv calls it through. */
#define FAKE_CHECK_TYPE(fn, type) \
    _Static_assert(_Generic(&fn, type: 1, default: 0), #fn " does not match " #type)

/* A driver that crashes or hangs inside its init call. */
FAKE_HIDDEN void fake_crash(void);
FAKE_HIDDEN void fake_hang(void);

/* 1 when DLENV_FAKE_SCENARIO is set and its file could be read, else 0. */
FAKE_HIDDEN int fake_scenario_present(void);

/* The value of key, or NULL when the key is absent (or there is no scenario). */
FAKE_HIDDEN const char *fake_scenario_get(const char *key);

/* Same, with the key built from a printf format. */
FAKE_HIDDEN const char *fake_scenario_getf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* 1 and *code set when value is "error:<N>", else 0. */
FAKE_HIDDEN int fake_scenario_is_error(const char *value, int *code);

/* Whole-string number parsing (leading/trailing blanks allowed); 1 on success. base 16
 * accepts an optional 0x prefix. */
FAKE_HIDDEN int fake_scenario_ll(const char *value, int base, long long *out);
FAKE_HIDDEN int fake_scenario_ull(const char *value, int base, unsigned long long *out);

#endif
