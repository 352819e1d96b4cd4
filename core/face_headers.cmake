# The door, enforced by the compiler (docs/architecture.md, "The door"): the faces (ui/, app/)
# see core/ only through a generated include folder that holds the pipeline's headers, the value
# headers the architecture page names, and the headers those include, as links to the sources.
# Any other lower-library header is simply not there, so including it from a face fails to
# compile; tests/architecture/check_face_includes.py also rejects a face's direct include of a
# header that is there only because a pipeline header needs it.
#
# noisescope_face_include_dir(OUT_DIR) fills OUT_DIR at configure time and re-runs CMake when
# one of those headers or the page's list changes (an added #include can widen the closure).
function(noisescope_face_include_dir out_dir)
  set(core ${CMAKE_CURRENT_SOURCE_DIR})
  set(page ${PROJECT_SOURCE_DIR}/docs/architecture.md)
  file(READ ${page} text)
  string(REGEX MATCH "<!-- face-value-headers -->.*<!-- /face-value-headers -->" list "${text}")
  string(REGEX MATCHALL "`[a-z_]+/[a-z_0-9]+\\.h`" named "${list}")
  if(NOT named)
    message(FATAL_ERROR "${page}: no face-value-headers list; the door has no value headers")
  endif()
  string(REPLACE "`" "" queue "${named}")
  file(GLOB pipeline_headers RELATIVE ${core} CONFIGURE_DEPENDS ${core}/pipeline/*.h)
  list(APPEND queue ${pipeline_headers})

  set(closure)
  while(queue)
    list(POP_FRONT queue header)
    if(header IN_LIST closure)
      continue()
    endif()
    if(NOT EXISTS ${core}/${header})
      message(FATAL_ERROR "${page} or a pipeline header names ${header}, which core/ lacks")
    endif()
    list(APPEND closure ${header})
    file(STRINGS ${core}/${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[^\"]+\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" included "${line}")
      if(EXISTS ${core}/${included})
        list(APPEND queue ${included})
      endif()
    endforeach()
  endwhile()

  file(REMOVE_RECURSE ${out_dir})
  set(watched ${page})
  foreach(header IN LISTS closure)
    get_filename_component(folder ${out_dir}/${header} DIRECTORY)
    file(MAKE_DIRECTORY ${folder})
    file(CREATE_LINK ${core}/${header} ${out_dir}/${header} SYMBOLIC)
    list(APPEND watched ${core}/${header})
  endforeach()
  # An edited header may include more (a new pipeline header re-runs the glob above).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${watched})
  list(LENGTH closure count)
  message(STATUS "the faces see ${count} core headers through ${out_dir}")
endfunction()
