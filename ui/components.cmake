# The GUI's components, lowest first, and the other ui components each may
# use (core's public headers are open to all of them; the simulator is not).
# One static library per component (relayhud_gui_<name>, ui/CMakeLists.txt);
# cmake/check_includes.cmake holds every #include of ui/ to this graph, and
# the same script draws it in docs/ARCHITECTURE.md.
set(RELAYHUD_UI_COMPONENTS
  common    # formatting, elided labels, job labels, resources, off-thread cache reads
  settings  # the settings dialog, the keychain's tokens
  status    # the status bar's sync state
  logs      # the log viewer: documents of gigabytes, folds, search, landmarks
  gating    # merge gating of a PR
  links     # relayhud:// links and what they point at
  watch     # followed items, notifications, quiet hours
  matrix    # the SHA x job matrix: model, filter proxy, headers, delegate, walk
  details   # the run details dock: attempts, state tiles, links
  coverage  # what a green covered: the verdict dock
  triage    # class chips, the tag dialog, the keys, the triage controller, the team link
  tests     # the tests dock: model, filters, history strips, evidence text
  clusters  # failure clusters across runs
  charts    # trend charts
  results   # report windows and the reads behind the tests dock
  sync      # the HUD and artifact sync workers, snapshot loading
  config    # the outcome-config editor
  upgrade   # the upgrade review: what a PyTorch bump changes under the configs
  jump      # the Ctrl+K jump box
  backends  # the backends overview and the integration doctor
  window    # the main window: the frame, its menus, docks and wiring
  app       # start-up: command line, demo simulator, one instance per cache, shots
)
set(RELAYHUD_UI_DEPS_common)
set(RELAYHUD_UI_DEPS_settings common)
set(RELAYHUD_UI_DEPS_status common)
set(RELAYHUD_UI_DEPS_logs common)
set(RELAYHUD_UI_DEPS_gating common)
set(RELAYHUD_UI_DEPS_links common)
set(RELAYHUD_UI_DEPS_watch common)
set(RELAYHUD_UI_DEPS_matrix common watch)
set(RELAYHUD_UI_DEPS_details common matrix)
set(RELAYHUD_UI_DEPS_coverage common matrix)
set(RELAYHUD_UI_DEPS_triage common matrix)
set(RELAYHUD_UI_DEPS_tests common matrix triage)
set(RELAYHUD_UI_DEPS_clusters common tests triage)
set(RELAYHUD_UI_DEPS_charts common triage)
set(RELAYHUD_UI_DEPS_results common settings tests)
set(RELAYHUD_UI_DEPS_sync common results)
set(RELAYHUD_UI_DEPS_config common matrix tests)
set(RELAYHUD_UI_DEPS_upgrade common)
set(RELAYHUD_UI_DEPS_jump common tests)
set(RELAYHUD_UI_DEPS_backends common settings watch)
set(RELAYHUD_UI_DEPS_window
  common settings status logs gating links watch matrix details coverage triage tests clusters
  charts results sync config upgrade jump backends)
set(RELAYHUD_UI_DEPS_app common window)
