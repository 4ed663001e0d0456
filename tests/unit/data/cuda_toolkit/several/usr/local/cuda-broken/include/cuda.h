/* fixture: the top of cuda.h */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#define CUDA_VERSION 12010

#endif
