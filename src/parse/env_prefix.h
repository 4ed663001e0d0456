/* The conda environment a pasted text runs in, from the paths it shows
 * ("/home/me/miniconda3/envs/dl/lib/python3.10/site-packages/torch/__init__.py",
 * "C:\Users\me\anaconda3\envs\dl\Lib\site-packages\..."), so that a conda fix can name the
 * environment it acts on instead of whichever one is active. */
#ifndef DLENV_PARSE_ENV_PREFIX_H
#define DLENV_PARSE_ENV_PREFIX_H

#include "parse/paste.h"

#include <stdbool.h>
#include <stddef.h>

/* The first conda environment's prefix (".../miniconda3/envs/dl") that a site-packages or
 * bin/python path of the paste lies in, in the writer's case; false when none, or when
 * the folder above "envs" is not a conda install's (anaconda3, miniconda3, miniforge3,
 * mambaforge, micromamba, .conda): pyenv-virtualenv's ".pyenv/versions/3.10/envs/x" is a
 * venv. *line is the line it came from. */
bool dl_text_conda_prefix(const dl_paste *p, char *buf, size_t n, size_t *line);

/* The interpreter of the environment whose packages a pasted path lies in, where that is
 * not the one "python" starts: an app's own Python ("...\ComfyUI_windows_portable\
 * python_embeded\Lib\site-packages\torch\..." -> "...\python_embeded\python.exe", RVC's
 * "runtime"), a venv's (".../venv/lib/python3.10/site-packages" -> ".../venv/bin/python",
 * "...\venv\Lib\site-packages" -> "...\venv\Scripts\python.exe"). False when the paste
 * shows none; conda environments are dl_text_conda_prefix's. */
bool dl_text_env_python(const dl_paste *p, char *buf, size_t n, size_t *line);

#endif
