/* pip's "from versions: none" for a package other than torch's own, read as no wheel for
 * this Python: the finding names that package, not torch. */
#ifndef DLENV_EXPLAIN_PACKAGE_PYTHON_TEXT_H
#define DLENV_EXPLAIN_PACKAGE_PYTHON_TEXT_H

#include "explain/explain.h"

/* Retitles python_unsupported's general reading ("No torch wheels for this Python") when
 * the requirement pip could not satisfy is another package (coqui-tts, a model's library):
 * its releases are the ones without a wheel for this Python. */
void dl_explain_other_package_for_python(dl_explanation *e);

#endif
