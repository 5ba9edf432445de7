#pragma once
// The stores' way to the SQLite connection of a Database
// (relayhud/store/database.h): private to this component, which alone runs
// SQL on the cache. A store keeps the connection it was built with.
#include "relayhud/store/database.h"
