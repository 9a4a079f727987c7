# SPDX-License-Identifier: GPL-2.0
# Per-stage wall-clock times, printed when the sourcing script exits.
declare -a stages
t0=$(date +%s)
now() { date +%s; }
stage() { # name start
	local s=$(($(now) - $2))
	stages+=("$(printf '  %-30s %3dm%02ds' "$1" $((s / 60)) $((s % 60)))")
}
stage_report() {
	stage total "$t0"
	echo
	echo "stage timings:"
	printf '%s\n' "${stages[@]}"
}
trap stage_report EXIT
