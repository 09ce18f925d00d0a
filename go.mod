module spv2visa

go 1.26
