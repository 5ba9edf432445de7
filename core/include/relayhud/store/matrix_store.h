#pragma once
// The SHA x job matrix, read in one pass over the runs of a window.
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/util/result.h"

struct sqlite3;

namespace relayhud {

class Database;

class MatrixStore {
public:
    explicit MatrixStore(const Database& db);

    // Builds the SHA x job matrix: newest attempt per cell by default.
    Result<MatrixSnapshot> loadMatrix(const MatrixQuery& query) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
