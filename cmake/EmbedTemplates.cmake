# Compiles every file under templates/ into the binary as a name -> text table.
file(GLOB_RECURSE TRAINCTL_TEMPLATE_FILES CONFIGURE_DEPENDS
  RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/templates ${CMAKE_CURRENT_SOURCE_DIR}/templates/*)
set(_embed_out ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_templates.cpp)
set(_embed_deps)
foreach(f ${TRAINCTL_TEMPLATE_FILES})
  list(APPEND _embed_deps ${CMAKE_CURRENT_SOURCE_DIR}/templates/${f})
endforeach()
add_custom_command(OUTPUT ${_embed_out}
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/templates -DOUT=${_embed_out}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_templates_script.cmake
  DEPENDS ${_embed_deps} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed_templates_script.cmake
  COMMENT "Embedding templates")
list(APPEND TRAINCTL_GENERATED_SOURCES ${_embed_out})
