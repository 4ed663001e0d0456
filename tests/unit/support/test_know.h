/* The built-in knowledge tables, loaded once per test group: cmocka group setup and
 * teardown for the tests of rules and of the planner. */
#ifndef DLENV_TEST_KNOW_H
#define DLENV_TEST_KNOW_H

#include "know/tables.h"

extern dl_knowledge dl_test_know;

int dl_test_know_setup(void **state);
int dl_test_know_teardown(void **state);

#endif
