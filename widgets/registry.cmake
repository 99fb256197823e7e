# Registry (issue #11) GUI files
target_sources(pb_widgets PRIVATE
  FetchEvidenceDialog.h FetchEvidenceDialog.cpp
  RegistryCredentialsDialog.h RegistryCredentialsDialog.cpp
)
