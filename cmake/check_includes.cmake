# Checks the house's include graph against core/components.cmake:
#   cmake -DSOURCE_DIR=<repo> -P cmake/check_includes.cmake
# Fails, naming the file, the line and the edge, when
#   - the component graph has a cycle;
#   - a core component includes a component it may not use (an upward or
#     sideways edge), or another component's private header (core/src);
#   - core includes the simulator, the GUI, or anything of app/;
#   - the simulator, the GUI or the apps include a private core header;
#   - the simulator includes the GUI, or the GUI the simulator.
# The layering reads: app -> ui -> core, sim -> core.
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
include("${SOURCE_DIR}/core/components.cmake")

set(problems)

# The graph: every dependency named is a component, and there is no cycle
# (Kahn's algorithm: repeatedly take a component whose dependencies are all
# taken; what never becomes takeable is on a cycle).
foreach(c IN LISTS RELAYHUD_CORE_COMPONENTS)
  foreach(d IN LISTS RELAYHUD_CORE_DEPS_${c})
    if(NOT d IN_LIST RELAYHUD_CORE_COMPONENTS)
      list(APPEND problems "core/components.cmake: ${c} uses '${d}', which is no component")
    endif()
  endforeach()
endforeach()
set(left ${RELAYHUD_CORE_COMPONENTS})
set(taken)
set(progress TRUE)
while(left AND progress)
  set(progress FALSE)
  foreach(c IN LISTS left)
    set(ready TRUE)
    foreach(d IN LISTS RELAYHUD_CORE_DEPS_${c})
      if(NOT d IN_LIST taken)
        set(ready FALSE)
      endif()
    endforeach()
    if(ready)
      list(APPEND taken ${c})
      list(REMOVE_ITEM left ${c})
      set(progress TRUE)
    endif()
  endforeach()
endwhile()
if(left)
  list(JOIN left ", " cycle)
  message(FATAL_ERROR "core/components.cmake: a cycle: these components cannot be ordered "
                      "(a cycle runs through some of them, the rest use it):\n  ${cycle}")
endif()

# What each component may include: itself and, transitively, what it uses
# (in dependency order, so each closure is complete when it is read).
foreach(c IN LISTS taken)
  set(allowed_${c} ${c})
  foreach(d IN LISTS RELAYHUD_CORE_DEPS_${c})
    list(APPEND allowed_${c} ${allowed_${d}})
  endforeach()
  list(REMOVE_DUPLICATES allowed_${c})
endforeach()

# line_of(<path> <text> <out>): the line number of <text> in <path>.
function(line_of path text out)
  file(READ "${SOURCE_DIR}/${path}" content)
  string(FIND "${content}" "${text}" at)
  string(SUBSTRING "${content}" 0 ${at} before)
  string(REGEX MATCHALL "\n" newlines "${before}")
  list(LENGTH newlines n)
  math(EXPR n "${n} + 1")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# check_file(<path> <owner> <public> <private>): each "relayhud/X/..." include
# must name an X in <public>; each quoted "X/..." include (a private header,
# found through the owner's src/ folder) an X in <private>.
function(check_file path owner public private)
  file(STRINGS "${SOURCE_DIR}/${path}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  set(found ${problems})
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      continue()
    endif()
    set(header "${CMAKE_MATCH_1}")
    set(edge)
    if(header MATCHES "^relayhud/([a-z_]+)/")
      set(target "${CMAKE_MATCH_1}")
      if(NOT target IN_LIST public)
        list(JOIN public " " may)
        set(edge "${owner} -> ${target} (#include \"${header}\"), but ${owner} may include only: ${may}")
      endif()
    elseif(header MATCHES "^([a-z_]+)/")
      set(target "${CMAKE_MATCH_1}")
      if(NOT target IN_LIST private)
        set(edge "${owner} -> a private header of ${target} (#include \"${header}\"): use a public header, or move what is shared down")
      endif()
    endif()
    if(edge)
      line_of("${path}" "${line}" at)
      list(APPEND found "${path}:${at}: ${edge}")
    endif()
  endforeach()
  set(problems ${found} PARENT_SCOPE)
endfunction()

function(sources_under dir out)
  file(GLOB_RECURSE found RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${dir}/*.h"
       "${SOURCE_DIR}/${dir}/*.cpp" "${SOURCE_DIR}/${dir}/*.h.in")
  list(SORT found)
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# Core: each component's public headers and sources.
set(count 0)
foreach(c IN LISTS RELAYHUD_CORE_COMPONENTS)
  sources_under("core/include/relayhud/${c}" public_files)
  sources_under("core/src/${c}" private_files)
  foreach(f IN LISTS public_files private_files)
    check_file("${f}" "${c}" "${allowed_${c}}" "${c}")
    math(EXPR count "${count} + 1")
  endforeach()
endforeach()
# Anything in core outside a component's folders is a component nobody listed.
sources_under("core" core_files)
foreach(f IN LISTS core_files)
  if(NOT f MATCHES "^core/(include/relayhud|src)/([a-z_]+)/")
    list(APPEND problems "${f}: in no component (core/components.cmake lists them)")
  elseif(NOT CMAKE_MATCH_2 IN_LIST RELAYHUD_CORE_COMPONENTS)
    list(APPEND problems "${f}: '${CMAKE_MATCH_2}' is no component (core/components.cmake)")
  endif()
endforeach()

# Above core: the simulator, the GUI and the apps use core's public headers.
function(check_tree dir owner public private)
  sources_under("${dir}" files)
  foreach(f IN LISTS files)
    check_file("${f}" "${owner}" "${public}" "${private}")
  endforeach()
  set(problems ${problems} PARENT_SCOPE)
endfunction()
set(core_public ${RELAYHUD_CORE_COMPONENTS})
# Their private headers are their own src/ folders' (ui/src/matrix/...).
function(folders_in dir out)
  file(GLOB entries LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}/${dir}" "${SOURCE_DIR}/${dir}/*")
  set(folders)
  foreach(e IN LISTS entries)
    if(IS_DIRECTORY "${SOURCE_DIR}/${dir}/${e}")
      list(APPEND folders "${e}")
    endif()
  endforeach()
  set(${out} ${folders} PARENT_SCOPE)
endfunction()
folders_in(ui/src ui_private)
folders_in(sim/src sim_private)
check_tree(sim sim "${core_public};sim" "${sim_private}")
check_tree(ui ui "${core_public};ui" "${ui_private}")
check_tree(app/cli cli "${core_public}" "")
check_tree(app/gui gui "${core_public};ui" "")

if(problems)
  list(LENGTH problems n)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "include graph: ${n} edge(s) the layering forbids (core/components.cmake):\n  ${text}")
endif()
list(JOIN taken " -> " order)
message(STATUS "include graph: acyclic, ${count} core files in order ${order}; sim, ui and app "
               "use core's public headers only")
