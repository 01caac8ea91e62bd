# The bootstrap API key's owner, the one user a fresh Taproot has.
data "rootly_user" "owner" {
  email = "owner@taproot.local"
}

resource "rootly_schedule" "probe" {
  name          = "tf-probe on-call schedule ${var.rev}"
  owner_user_id = data.rootly_user.owner.id
}

# After the provider's documented weekday rotation, but active all week: the provider leaves a false
# active_all_week out of its request (omitempty), and the reference's default is true.
resource "rootly_schedule_rotation" "probe" {
  schedule_id                = rootly_schedule.probe.id
  name                       = "tf-probe weekdays ${var.rev}"
  active_all_week            = true
  active_days                = var.rev == 1 ? ["M", "T", "W", "R", "F"] : ["M", "W"]
  active_time_type           = "custom"
  position                   = 1
  schedule_rotationable_type = "ScheduleDailyRotation"
  schedule_rotationable_attributes = {
    handoff_time = var.rev == 1 ? "10:00" : "11:30"
  }
  time_zone = var.rev == 1 ? "America/Toronto" : "Europe/Paris"
}

resource "rootly_schedule_rotation_active_day" "monday" {
  schedule_rotation_id = rootly_schedule_rotation.probe.id
  day_name             = "M"
  active_time_attributes {
    start_time = "10:00"
    end_time   = var.rev == 1 ? "18:00" : "17:00"
  }
}

resource "rootly_schedule_rotation_user" "probe" {
  schedule_rotation_id = rootly_schedule_rotation.probe.id
  user_id              = data.rootly_user.owner.id
  position             = var.rev
}

resource "rootly_override_shift" "probe" {
  schedule_id = rootly_schedule.probe.id
  user_id     = data.rootly_user.owner.id
  starts_at   = "2030-06-0${var.rev}T09:00:00Z"
  ends_at     = "2030-06-0${var.rev}T17:00:00Z"
}

resource "rootly_schedule" "shadowed" {
  name = "tf-probe shadowed schedule"
}

# Times are written as Taproot answers them (the UTC instant, milliseconds): the provider compares
# this resource's times as text (override_shift's as instants).
resource "rootly_on_call_shadow" "probe" {
  schedule_id     = rootly_schedule.probe.id
  shadow_user_id  = data.rootly_user.owner.id
  shadowable_id   = rootly_schedule.shadowed.id
  shadowable_type = "Schedule"
  starts_at       = "2030-06-0${var.rev}T00:00:00.000Z"
  ends_at         = "2030-06-1${var.rev}T00:00:00.000Z"
}

# The owner's on-call role, set to the one it has: another would take the bootstrap key's own
# on-call permissions away while the other resources are applied.
data "rootly_on_call_role" "admin" {
  slug = "admin"
}

resource "rootly_user_on_call_role" "probe" {
  user_id         = data.rootly_user.owner.id
  on_call_role_id = data.rootly_on_call_role.admin.id
}
