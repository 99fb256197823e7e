#pragma once
// issue #11 (placeholder)
