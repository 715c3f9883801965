/*
 * tests/prof/json.h — a small JSON parser for the prof suite: `rdx prof
 * --json` and `--trace` output is parsed (RFC 8259 syntax checked) and walked.
 */
#ifndef RDX_TESTS_PROF_JSON_H
#define RDX_TESTS_PROF_JSON_H

#include <stddef.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
    jtype t;
    double num;
    char *str;           /* J_STR */
    struct jval **items; /* J_ARR values, J_OBJ values */
    char **keys;         /* J_OBJ */
    size_t n;
} jval;

/* Parse the whole text; NULL on a syntax error (with its offset in *err_at). */
jval *json_parse(const char *text, size_t *err_at);
void json_free(jval *v);
/* Member of an object (NULL when absent or v is not an object). */
const jval *json_get(const jval *v, const char *key);

#endif
