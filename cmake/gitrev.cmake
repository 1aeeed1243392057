# Writes OUT (a header defining IG_GIT_REV) from `git describe` of SRC, or
# from REV when given (a source package has no .git: debian/rules passes
# it), and only when it changes, so that a build recompiles one file.
if(REV)
  set(rev "${REV}")
else()
  execute_process(COMMAND git -C "${SRC}" describe --always --dirty
                          --abbrev=12
                  OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR rev STREQUAL "")
    set(rev "unknown")
  endif()
endif()
set(text "#define IG_GIT_REV \"${rev}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
