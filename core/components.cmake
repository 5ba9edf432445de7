# The core components and what each may use: the one place the layering is
# written down. core/CMakeLists.txt links each component's library to the
# libraries named here, and cmake/check_includes.cmake (a CI step and a
# test) refuses an #include that goes anywhere else, or a cycle. Lowest
# first; a component may use those it names and what they use in turn.
set(RELAYHUD_CORE_COMPONENTS
  util      # results, time, paths, UTF-8, file and hash helpers
  model     # the relay's vocabulary: check runs, commits, levels, failure classes
  net       # HTTP (libcurl) with retries, time-outs and pacing
  junit     # JUnit XML reports and test identities
  store     # the SQLite cache and the on-disk blob cache
  artifacts # GitHub Actions artifacts and logs, S3/HTTPS buckets, archives
  results   # importing reports into the cache
  hud       # the HUD read API
  logs      # the log viewer's engine
  yaml      # YAML documents as trees with positions (libyaml)
  pysource  # Python test files' classes and functions, as ast would list them
  git       # a local git checkout read at any revision (libgit2)
  triage    # failure lines, rules, suggestions, clusters
  config    # torch-spyre outcome configs
  verdict   # what a green covered, reports, trends
  sync      # HUD and artifact syncs into the cache
  doctor    # is a backend's CRCR integration sound: workflow lint, runtime health
  team      # a team's shared triage on a PostgreSQL server (libpq)
  upgrade   # what a PyTorch bump changed under a backend's configs
)
set(RELAYHUD_CORE_DEPS_util)
set(RELAYHUD_CORE_DEPS_model util)
set(RELAYHUD_CORE_DEPS_net util)
set(RELAYHUD_CORE_DEPS_junit util model)
set(RELAYHUD_CORE_DEPS_store model junit util)
set(RELAYHUD_CORE_DEPS_artifacts net store util)
set(RELAYHUD_CORE_DEPS_results artifacts junit store)
set(RELAYHUD_CORE_DEPS_hud model net util)
set(RELAYHUD_CORE_DEPS_logs util model)
set(RELAYHUD_CORE_DEPS_triage logs store junit model)
set(RELAYHUD_CORE_DEPS_yaml util)
set(RELAYHUD_CORE_DEPS_pysource util)
set(RELAYHUD_CORE_DEPS_git util)
set(RELAYHUD_CORE_DEPS_config junit store yaml)
set(RELAYHUD_CORE_DEPS_verdict config hud triage)
set(RELAYHUD_CORE_DEPS_sync artifacts hud results triage)
set(RELAYHUD_CORE_DEPS_doctor artifacts hud store yaml util)
set(RELAYHUD_CORE_DEPS_team store util)
set(RELAYHUD_CORE_DEPS_upgrade config git pysource)
