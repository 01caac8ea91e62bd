resource "rootly_catalog" "probe" {
  name        = "tf-probe catalog ${var.rev}"
  description = "Data stores, rev ${var.rev}"
  icon        = var.rev == 1 ? "server-stack" : "shapes"
}

resource "rootly_catalog_property" "tier" {
  catalog_id = rootly_catalog.probe.id
  name       = "Tier ${var.rev}"
  kind       = "text"
  multiple   = var.rev == 2
}

resource "rootly_catalog_property" "service_language" {
  catalog_type = "service"
  name         = "tf-probe language ${var.rev}"
  kind         = "text"
}

resource "rootly_catalog_entity" "orders" {
  catalog_id  = rootly_catalog.probe.id
  name        = "Orders DB ${var.rev}"
  description = "Orders, rev ${var.rev}"
  properties {
    catalog_property_id = rootly_catalog_property.tier.id
    value               = var.rev == 1 ? "gold" : "silver"
  }
}
