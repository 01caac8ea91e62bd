# The bootstrap API key's owner, the one user a fresh Taproot has.
data "rootly_user" "owner" {
  email = "owner@taproot.local"
}

resource "rootly_team" "probe" {
  name = "tf-probe grants team ${var.rev}"
}

resource "rootly_dashboard" "probe" {
  name  = "tf-probe granted dashboard ${var.rev}"
  owner = "team"
}

# Both grantees; the user's leaves the types out, as the provider allows.
resource "rootly_authorization" "team" {
  authorizable_id   = rootly_dashboard.probe.id
  authorizable_type = "Dashboard"
  grantee_id        = rootly_team.probe.id
  grantee_type      = "Team"
  permissions       = var.rev == 1 ? ["read"] : ["read", "update"]
}

resource "rootly_authorization" "user" {
  authorizable_id = rootly_dashboard.probe.id
  grantee_id      = data.rootly_user.owner.id
  permissions     = var.rev == 1 ? ["read", "authorize"] : ["read"]
}

resource "rootly_catalog_property" "service_tier" {
  catalog_type = "service"
  name         = "tf-probe checklist tier"
  kind         = "text"
}

resource "rootly_catalog_checklist_template" "services" {
  name        = "tf-probe readiness ${var.rev}"
  description = "Services reviewed, rev ${var.rev}"
  scope_id    = rootly_team.probe.id
  fields {
    field_key = "description"
  }
  fields {
    field_source        = "custom"
    catalog_property_id = rootly_catalog_property.service_tier.id
  }
  owners {
    id = var.rev == 1 ? "owner_user_ids" : "owner_group_ids"
  }
  owners {
    type = "user"
    id   = data.rootly_user.owner.id
  }
}

resource "rootly_catalog" "probe" {
  name = "tf-probe audited catalog"
}

resource "rootly_catalog_checklist_template" "catalog" {
  name         = "tf-probe catalog audit ${var.rev}"
  catalog_type = "Catalog"
  scope_type   = "Catalog"
  scope_id     = rootly_catalog.probe.id
  fields {
    field_key = var.rev == 1 ? "name" : "description"
  }
}
