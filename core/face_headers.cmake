# The door, enforced by the compiler (docs/architecture.md, "The door"): the faces (ui/, app/)
# see core/ only through a generated include folder that holds the headers core/face_headers.txt
# lists, as links to the sources. Any other core header is simply not there, so including it
# from a face fails to compile; tests/architecture/check_face_includes.py also rejects a face's
# direct include of a [support] header.
#
# noisescope_face_include_dir(OUT_DIR) checks the list and fills OUT_DIR at configure time; it
# re-runs when the list or a listed header changes (an added #include may need listing).
function(noisescope_face_include_dir out_dir)
  set(core ${CMAKE_CURRENT_SOURCE_DIR})
  set(list_file ${core}/face_headers.txt)
  file(STRINGS ${list_file} lines)
  set(section)
  set(listed)
  set(listed_pipeline)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    elseif(line MATCHES "^\\[(pipeline|values|support)\\]$")
      set(section ${CMAKE_MATCH_1})
    elseif(NOT section)
      message(FATAL_ERROR "${list_file}: '${line}' comes before any [section]")
    elseif(NOT EXISTS ${core}/${line})
      message(FATAL_ERROR "${list_file}: lists ${line}, which core/ lacks")
    else()
      list(APPEND listed ${line})
      if(section STREQUAL "pipeline")
        list(APPEND listed_pipeline ${line})
      endif()
    endif()
  endforeach()

  # Every pipeline header is either an action a face may call or internal/: a new one is a choice.
  file(GLOB_RECURSE pipeline_headers RELATIVE ${core} CONFIGURE_DEPENDS ${core}/pipeline/*.h)
  foreach(header IN LISTS pipeline_headers)
    if(header MATCHES "^pipeline/internal/")
      if(header IN_LIST listed)
        message(FATAL_ERROR "${list_file}: lists ${header}, which is internal to the pipeline")
      endif()
    elseif(NOT header IN_LIST listed_pipeline)
      message(FATAL_ERROR "${list_file}: ${header} is neither listed under [pipeline] nor in "
                          "pipeline/internal/")
    endif()
  endforeach()

  # Closed, and free of LibTorch and Eigen: a face parses neither.
  foreach(header IN LISTS listed)
    file(STRINGS ${core}/${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]+[\"<]")
    foreach(line IN LISTS includes)
      if(line MATCHES "<(torch|ATen|c10|Eigen|unsupported/Eigen)/")
        message(FATAL_ERROR "${list_file}: ${header} includes ${CMAKE_MATCH_1}'s headers; "
                            "a face must not parse them (keep them in the .cpp or behind a "
                            "forward declaration)")
      endif()
      if(line MATCHES "\"([^\"]+)\"" AND EXISTS ${core}/${CMAKE_MATCH_1})
        set(included ${CMAKE_MATCH_1})
        if(NOT included IN_LIST listed)
          message(FATAL_ERROR "${list_file}: ${header} includes ${included}, which the list does "
                              "not name (add it under [support], or keep it out of ${header})")
        endif()
      endif()
    endforeach()
  endforeach()

  file(REMOVE_RECURSE ${out_dir})
  set(watched ${list_file})
  foreach(header IN LISTS listed)
    get_filename_component(folder ${out_dir}/${header} DIRECTORY)
    file(MAKE_DIRECTORY ${folder})
    file(CREATE_LINK ${core}/${header} ${out_dir}/${header} SYMBOLIC)
    list(APPEND watched ${core}/${header})
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${watched})
  list(LENGTH listed count)
  message(STATUS "the faces see ${count} core headers through ${out_dir}")
endfunction()
