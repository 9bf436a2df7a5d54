// The header declares libFuzzer's driver; SwiftPM needs one source file for a C target.
#include "CFuzzDriver.h"
