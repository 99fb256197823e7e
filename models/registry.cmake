# Registry (issue #11) GUI files
target_sources(pb_models PRIVATE
  RegistryModels.h RegistryModels.cpp
)
