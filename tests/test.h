/* A minimal test harness: each TEST is a function; CHECK stops the test at the first failure.
   Output: one "ok NAME" or "FAIL NAME: file:line: what" line per test (tests/run.sh counts them). */
#ifndef BYOC_TEST_H
#define BYOC_TEST_H
#include <stdio.h>
#include <string.h>

static int test_failed;
static char test_why[1024];

#define CHECK(cond)                                                                              \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            snprintf(test_why, sizeof test_why, "%s:%d: %s", __FILE__, __LINE__, #cond);         \
            test_failed = 1;                                                                     \
            return;                                                                              \
        }                                                                                        \
    } while (0)

/* like CHECK, with a formatted explanation */
#define CHECKF(cond, ...)                                                                        \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            int n_ = snprintf(test_why, sizeof test_why, "%s:%d: ", __FILE__, __LINE__);         \
            snprintf(test_why + n_, sizeof test_why - (size_t)n_, __VA_ARGS__);                  \
            test_failed = 1;                                                                     \
            return;                                                                              \
        }                                                                                        \
    } while (0)

#define CHECK_CONTAINS(hay, needle) CHECKF((hay) && strstr((hay), (needle)), "expected \"%s\" in \"%.700s\"", (needle), (hay) ? (hay) : "(null)")

typedef void (*test_fn)(void);
typedef struct test_case { const char *name; test_fn fn; } test_case;
#define TEST_ENTRY(fn) {#fn, fn}

static int run_tests(const test_case *tests, int count, int argc, char **argv) {
    int failures = 0;
    for (int i = 0; i < count; ++i) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        test_failed = 0;
        test_why[0] = 0;
        tests[i].fn();
        if (test_failed) { printf("FAIL %s: %s\n", tests[i].name, test_why); failures++; }
        else printf("ok %s\n", tests[i].name);
        fflush(stdout);
    }
    return failures ? 1 : 0;
}
#endif
