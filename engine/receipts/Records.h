#pragma once
// issue #9 (placeholder)
